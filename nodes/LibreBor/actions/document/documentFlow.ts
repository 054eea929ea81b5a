import { NodeOperationError, type IBinaryData, type IExecuteFunctions } from 'n8n-workflow';

import { getDocument, type DocumentRecord } from '../../api/documents';
import { waitUnlessCancelled } from '../../run/cancellation';
import { now } from '../../time/clock';
import type { ItemRequest } from '../../run/nodeRun';
import { nextPollGap } from './pollGaps';
import { downloadToBinary } from '../../transport/download';
import { excerpt } from '../../transport/responseBody';
import type { WaitSettings } from './documentOptions';

const PROCESSING = 'processing';

/** One item's document to wait for: which one, for which item, and how. */
export interface DocumentJob {
	documentId: string;
	item: ItemRequest;
	wait: WaitSettings;
	/** Ordered a moment ago: the first check comes after the first poll gap, not at once. */
	justOrdered?: boolean;
}

/** A document that left `processing`, with the link to its file. */
export interface FinishedDocument {
	record: DocumentRecord;
	downloadLink: string;
}

/** Fails the item: the document is still processing at the end of Max Wait. */
function stillProcessing(context: IExecuteFunctions, job: DocumentJob): NodeOperationError {
	const { documentId, item, wait } = job;
	return new NodeOperationError(
		context.getNode(),
		`Document ${documentId} is still processing after ${Math.round(wait.maxWaitMs / 1000)} s`,
		{
			itemIndex: item.itemIndex,
			description: `It was ordered and will be ready later. Get it then with the Download operation and document ID ${documentId}, or raise Max Wait.`,
		},
	);
}

/**
 * Polls the document until its status leaves `processing`, or fails at the end of Max Wait: the
 * first check at once (or, just after the order, after the first poll gap), then gaps that grow
 * up to Poll Interval (pollGaps.ts); the last check falls at the end of Max Wait.
 */
async function waitUntilFinished(
	this: IExecuteFunctions,
	job: DocumentJob,
): Promise<DocumentRecord> {
	const { documentId, item, wait } = job;
	const deadline = now() + wait.maxWaitMs;
	const what = `Waiting for document ${documentId}`;
	let gap = job.justOrdered ? nextPollGap(undefined, wait.pollIntervalMs) : undefined;
	for (;;) {
		if (gap !== undefined) {
			const pause = Math.max(0, Math.min(gap, deadline - now()));
			await waitUnlessCancelled(this.getNode(), item, pause, what);
		}
		const record = await getDocument.call(this, documentId, item);
		if (record.status !== PROCESSING) return record;
		if (now() >= deadline) throw stillProcessing(this, job);
		gap = nextPollGap(gap, wait.pollIntervalMs);
	}
}

/** The download link of a finished document, or an error that shows its status. */
function requireDownloadLink(
	this: IExecuteFunctions,
	job: DocumentJob,
	record: DocumentRecord,
): string {
	const link = record.download_link;
	if (typeof link === 'string' && link.trim() !== '') return link.trim();
	throw new NodeOperationError(
		this.getNode(),
		`Document ${job.documentId} finished with status "${excerpt(String(record.status), 40)}" and no download link`,
		{
			itemIndex: job.item.itemIndex,
			description: `LibreBOR gave no file for it. Check document ID ${job.documentId} in the Documents section of the LibreBOR user panel, or contact LibreBOR support with it; Document > Get shows its status, and Download gets the file once it has a link.`,
		},
	);
}

/** A file's name when the download host gives none: from LibreBOR's record when its NIF and year read as such, else from the document ID. */
export function accountsFileName(nif: unknown, year: unknown, documentId: string): string {
	return typeof nif === 'string' && /^[A-Za-z0-9]{1,20}$/.test(nif) && /^\d{4}$/.test(String(year))
		? `cuentas-anuales-${nif}-${year}.pdf`
		: `cuentas-anuales-${documentId}.pdf`;
}

/** Waits until the job's document is ready; fails when it finished without a file. */
export async function waitForDocument(
	this: IExecuteFunctions,
	job: DocumentJob,
): Promise<FinishedDocument> {
	const record = await waitUntilFinished.call(this, job);
	return { record, downloadLink: requireDownloadLink.call(this, job, record) };
}

/** Downloads the file of a finished document into n8n's binary data. */
export async function downloadDocument(
	this: IExecuteFunctions,
	job: DocumentJob,
	finished: FinishedDocument,
	file: { maxBytes: number; fallbackFileName: string },
): Promise<IBinaryData> {
	const download = { link: finished.downloadLink, documentId: job.documentId, ...file };
	return await downloadToBinary.call(this, download, job.item);
}
