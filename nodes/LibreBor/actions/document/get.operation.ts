import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getDocument } from '../../api/documents';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import { readDocumentId } from '../../helpers/identifierParameters';
import {
	documentIdFields,
	optionsCollection,
	pacedRequestOptions,
	readRequestOptions,
} from '../../descriptions';

const displayOptions = { show: { resource: ['document'], operation: ['get'] } };

const properties: INodeProperties[] = [...documentIdFields, optionsCollection(pacedRequestOptions)];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs, pacing } = readRequestOptions(this);
	return await runForEachItem(this, pacing, async (itemIndex) => {
		const documentId = readDocumentId(this, itemIndex);
		const record = await getDocument.call(this, documentId, { itemIndex, timeoutMs });
		return pairRecords(itemIndex, [{ ...record, document_id: documentId }]);
	});
}
