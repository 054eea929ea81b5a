import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getDocument } from '../../api/documents';
import { pairRecords, runForEachItem } from '../../run/itemRunner';
import { readDocumentId } from '../../parameters/identifierParameters';
import { documentIdFields, optionsCollection, pacedRequestOptions } from '../../descriptions';
import { readRunSettings } from '../../parameters/runSettings';

const displayOptions = { show: { resource: ['document'], operation: ['get'] } };

const properties: INodeProperties[] = [...documentIdFields, optionsCollection(pacedRequestOptions)];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runForEachItem(this, readRunSettings(this), async (item) => {
		const documentId = readDocumentId(this, item.itemIndex);
		const record = await getDocument.call(this, documentId, item);
		return pairRecords(item.itemIndex, [{ ...record, document_id: documentId }]);
	});
}
