import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { orderAnnualAccounts } from '../../../api/documents';
import type { OrderOutcome } from './orderStores';
import { accountsFileName, downloadDocument, waitForDocument } from '../documentFlow';
import type { OrderJob } from './orderSettings';

/**
 * Orders one document and, as the options say, waits for it and downloads it. `onPlaced`
 * hears at once whether LibreBOR took the order, before any waiting.
 */
export async function placeOrder(
	this: IExecuteFunctions,
	job: OrderJob,
	onPlaced: (documentId: string | undefined) => void,
): Promise<OrderOutcome> {
	const { input } = job;
	let documentId: string | undefined;
	let answer: IDataObject;
	try {
		answer = await orderAnnualAccounts.call(this, { ...input, sendEmail: job.sendEmail }, job.item);
		documentId = String(answer.document_id);
	} finally {
		onPlaced(documentId);
	}
	return await completeOrder.call(this, job, { ...answer, nif: input.nif, year: input.year });
}

/** Waits for and downloads, as the options say, a document that is already ordered. */
export async function completeOrder(
	this: IExecuteFunctions,
	job: OrderJob,
	json: IDataObject,
): Promise<OrderOutcome> {
	const { completion, input, item } = job;
	if (!completion) return { json };

	const documentId = String(json.document_id);
	try {
		const documentJob = { documentId, item, wait: completion.wait };
		const finished = await waitForDocument.call(this, documentJob);
		json.status = finished.record.status;
		json.download_link = finished.downloadLink;
		const { file } = completion;
		if (!file) return { json };

		const fallbackFileName = accountsFileName(input.nif, input.year, documentId);
		const download = { maxBytes: file.maxBytes, fallbackFileName };
		const data = await downloadDocument.call(this, documentJob, finished, download);
		return { json, binary: { [file.binaryPropertyName]: data } };
	} catch (error) {
		throw namingThePlacedOrder(
			this,
			error as Error & { description?: string },
			documentId,
			item.itemIndex,
		);
	}
}

/** After the order was placed, every failure must say which document to resume with, not to order again. */
function namingThePlacedOrder(
	context: IExecuteFunctions,
	error: Error & { description?: string },
	documentId: string,
	itemIndex: number,
): NodeOperationError {
	const resume = `The order was placed: do not order again. Get the file later with the Download operation and document ID ${documentId}.`;
	const message = error.message.includes(documentId)
		? error.message
		: `Document ${documentId} was ordered, but: ${error.message}`;
	return new NodeOperationError(context.getNode(), message, {
		itemIndex,
		description: error.description?.includes(`document ID ${documentId}`)
			? error.description
			: `${resume}${error.description ? ` ${error.description}` : ''}`,
	});
}
