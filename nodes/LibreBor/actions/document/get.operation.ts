import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getDocument } from '../../api/documents';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import { readDocumentId } from '../../helpers/identifierParameters';
import {
	budgetOption,
	concurrencyOption,
	optionsCollection,
	readRequestOptions,
	timeoutOption,
} from '../commonOptions';
import { documentIdFields } from './documentIdField';

const showFor = { resource: ['document'], operation: ['get'] };

export const description: INodeProperties[] = [
	...documentIdFields('get'),
	optionsCollection(showFor, [concurrencyOption, budgetOption, timeoutOption]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs, pacing } = readRequestOptions(this);
	return await runForEachItem(this, pacing, async (itemIndex) => {
		const documentId = readDocumentId(this, itemIndex);
		const record = await getDocument.call(this, documentId, { itemIndex, timeoutMs });
		return pairRecords(itemIndex, [{ ...record, document_id: documentId }]);
	});
}
