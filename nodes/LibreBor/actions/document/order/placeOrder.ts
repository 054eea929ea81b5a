import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { orderAnnualAccounts } from '../../../api/documents';
import type { OrderOutcome } from './orderStores';
import {
	accountsFileName,
	downloadFinishedDocument,
	requireDownloadLink,
	waitUntilFinished,
} from '../documentFlow';
import { readCompletionSettings, type OrderInput } from './orderSettings';

/**
 * Orders one document and, as the options say, waits for it and downloads it. `onPlaced`
 * hears at once whether LibreBOR took the order, before any waiting.
 */
export async function placeOrder(
	this: IExecuteFunctions,
	input: OrderInput,
	itemIndex: number,
	timeoutMs: number,
	onPlaced: (documentId: string | undefined) => void,
): Promise<OrderOutcome> {
	const sendEmail = this.getNodeParameter('options.sendEmail', itemIndex, false) as boolean;
	let documentId: string | undefined;
	let answer: IDataObject;
	try {
		answer = await orderAnnualAccounts.call(
			this,
			{ ...input, sendEmail },
			{ itemIndex, timeoutMs },
		);
		documentId = String(answer.document_id);
	} finally {
		onPlaced(documentId);
	}
	return await completeOrder.call(
		this,
		input,
		{ ...answer, nif: input.nif, year: input.year },
		itemIndex,
		timeoutMs,
	);
}

/** Waits for and downloads, as the options say, a document that is already ordered. */
export async function completeOrder(
	this: IExecuteFunctions,
	input: OrderInput,
	json: IDataObject,
	itemIndex: number,
	timeoutMs: number,
): Promise<OrderOutcome> {
	const { download, waitSettings, maxBytes, binaryPropertyName } = readCompletionSettings(
		this,
		itemIndex,
	);
	if (!waitSettings) return { json };

	const documentId = String(json.document_id);
	try {
		const settings = { ...waitSettings, itemIndex, timeoutMs };
		const record = await waitUntilFinished.call(this, documentId, settings);
		json.status = record.status;
		json.download_link = requireDownloadLink.call(this, documentId, record, itemIndex);
		if (!download) return { json };

		const file = await downloadFinishedDocument.call(this, documentId, record, {
			itemIndex,
			timeoutMs,
			maxBytes,
			fallbackFileName: accountsFileName(input.nif, input.year, documentId),
		});
		return { json, binary: { [binaryPropertyName]: file } };
	} catch (error) {
		throw namingThePlacedOrder(
			this,
			error as Error & { description?: string },
			documentId,
			itemIndex,
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
