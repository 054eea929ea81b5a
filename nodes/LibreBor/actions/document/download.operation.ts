import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { pairWith, runAllItems } from '../../run/itemRunner';
import { readDocumentId } from '../../parameters/identifierParameters';
import type { ItemRequest } from '../../run/nodeRun';
import { documentIdFields, optionsCollection, pacedRequestOptions } from '../../descriptions';
import { readRunSettings } from '../../parameters/runSettings';
import { accountsFileName, downloadDocument, waitForDocument } from './documentFlow';
import {
	binaryPropertyOption,
	maxDownloadSizeOption,
	maxWaitOption,
	pollIntervalOptions,
	readBinaryPropertyName,
	readMaxDownloadBytes,
	readWaitSettings,
	withWaitBudget,
	type WaitSettings,
} from './documentOptions';

const displayOptions = { show: { resource: ['document'], operation: ['download'] } };

const properties: INodeProperties[] = [
	...documentIdFields,
	{
		...binaryPropertyOption,
		required: true,
	},
	optionsCollection([
		...pollIntervalOptions,
		maxWaitOption,
		maxDownloadSizeOption,
		...pacedRequestOptions,
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** What one item downloads, read for every item before any request. */
interface ItemDownload {
	documentId: string;
	binaryPropertyName: string;
	wait: WaitSettings;
	maxBytes: number;
}

function readItemDownload(context: IExecuteFunctions, itemIndex: number): ItemDownload | Error {
	try {
		return {
			documentId: readDocumentId(context, itemIndex),
			binaryPropertyName: readBinaryPropertyName(context, 'binaryPropertyName', itemIndex),
			wait: readWaitSettings(context, itemIndex),
			maxBytes: readMaxDownloadBytes(context, itemIndex),
		};
	} catch (error) {
		return error as Error;
	}
}

async function downloadOne(
	this: IExecuteFunctions,
	download: ItemDownload,
	item: ItemRequest,
): Promise<INodeExecutionData[]> {
	const { documentId, binaryPropertyName, maxBytes } = download;
	const job = { documentId, item, wait: download.wait };
	const finished = await waitForDocument.call(this, job);
	const { record } = finished;
	const fallbackFileName = accountsFileName(record.nif, record.year, documentId);
	const file = await downloadDocument.call(this, job, finished, { maxBytes, fallbackFileName });
	return pairWith(item.itemIndex, [
		{ json: { ...record, document_id: documentId }, binary: { [binaryPropertyName]: file } },
	]);
}

/** Every item waits for its document and downloads it side by side, Parallel Requests at most at once. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const settings = readRunSettings(this);
	const downloads = this.getInputData().map((_, itemIndex) => readItemDownload(this, itemIndex));
	const longestWait = downloads.reduce(
		(longest, download) =>
			download instanceof Error ? longest : Math.max(longest, download.wait.maxWaitMs),
		0,
	);
	return await runAllItems(this, withWaitBudget(settings, longestWait), (run) =>
		downloads.map(async (download, itemIndex) => {
			if (download instanceof Error) throw download;
			return await downloadOne.call(this, download, { run, itemIndex });
		}),
	);
}
