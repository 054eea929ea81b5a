import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { accountsFileName, downloadDocument, waitForDocument } from '../documentFlow';
import type { OrderOutcome } from './orderLedger';
import type { OrderJob } from './orderSettings';

/**
 * Waits for and downloads, as the options say, a document that is already ordered; `justOrdered`
 * when it was ordered a moment ago (its first check waits a little, see documentFlow.ts).
 */
export async function waitAndDownload(
	this: IExecuteFunctions,
	job: OrderJob,
	json: IDataObject,
	justOrdered = false,
): Promise<OrderOutcome> {
	const { completion, input, item } = job;
	if (!completion) return { json };

	const documentId = String(json.document_id);
	try {
		const documentJob = { documentId, item, wait: completion.wait, justOrdered };
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
