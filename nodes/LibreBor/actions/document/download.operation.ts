import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { pairWith, runForEachItem } from '../../helpers/itemRunner';
import { readDocumentId } from '../../helpers/identifierParameters';
import {
	documentIdFields,
	optionsCollection,
	pacedRequestOptions,
	readRunSettings,
} from '../../descriptions';
import { accountsFileName, downloadDocument, waitForDocument } from './documentFlow';
import {
	binaryPropertyOption,
	maxDownloadSizeOption,
	maxWaitOption,
	pollIntervalOption,
	readMaxDownloadBytes,
	readWaitSettings,
} from './documentOptions';

const displayOptions = { show: { resource: ['document'], operation: ['download'] } };

const properties: INodeProperties[] = [
	...documentIdFields,
	{
		...binaryPropertyOption,
		required: true,
	},
	optionsCollection([
		pollIntervalOption,
		maxWaitOption,
		maxDownloadSizeOption,
		...pacedRequestOptions,
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runForEachItem(this, readRunSettings(this), async (item) => {
		const { itemIndex } = item;
		const documentId = readDocumentId(this, itemIndex);
		const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
		const job = { documentId, item, wait: readWaitSettings(this, itemIndex) };
		const maxBytes = readMaxDownloadBytes(this, itemIndex);

		const finished = await waitForDocument.call(this, job);
		const { record } = finished;
		const fallbackFileName = accountsFileName(record.nif, record.year, documentId);
		const file = await downloadDocument.call(this, job, finished, { maxBytes, fallbackFileName });
		return pairWith(itemIndex, [
			{ json: { ...record, document_id: documentId }, binary: { [binaryPropertyName]: file } },
		]);
	});
}
