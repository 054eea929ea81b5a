import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { pairWith, runForEachItem } from '../../helpers/itemRunner';
import { readDocumentId } from '../../helpers/identifierParameters';
import {
	documentIdFields,
	optionsCollection,
	pacedRequestOptions,
	readRequestOptions,
} from '../../descriptions';
import { accountsFileName, downloadFinishedDocument, waitUntilFinished } from './documentFlow';
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
	const { timeoutMs, pacing } = readRequestOptions(this);
	return await runForEachItem(this, pacing, async (itemIndex) => {
		const documentId = readDocumentId(this, itemIndex);
		const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
		const waitSettings = readWaitSettings(this, itemIndex);
		const maxBytes = readMaxDownloadBytes(this, itemIndex);
		const record = await waitUntilFinished.call(this, documentId, {
			...waitSettings,
			itemIndex,
			timeoutMs,
		});
		const file = await downloadFinishedDocument.call(this, documentId, record, {
			itemIndex,
			timeoutMs,
			maxBytes,
			fallbackFileName: accountsFileName(record.nif, record.year, documentId),
		});
		return pairWith(itemIndex, [
			{ json: { ...record, document_id: documentId }, binary: { [binaryPropertyName]: file } },
		]);
	});
}
