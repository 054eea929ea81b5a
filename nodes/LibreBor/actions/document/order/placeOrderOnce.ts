import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
} from 'n8n-workflow';

import { cancelledError } from '../../../run/cancellation';
import type { RecordVerdict } from './orderIntents';
import type { OrderStores, SendClaim } from './orderStores';
import type { OrderJob } from './orderSettings';
import { sendOrder } from './placeOrder';

/** LibreBOR answered the order with a 4xx: it did not take it, and it may be placed again later. */
function refusedByLibreBor(error: unknown): boolean {
	return error instanceof NodeApiError && /^4\d\d$/.test(String(error.httpCode ?? ''));
}

function sentByAnotherAttempt(context: IExecuteFunctions, { input, item }: OrderJob) {
	return new NodeOperationError(
		context.getNode(),
		`Another execution of this workflow sent the order for ${input.nif} ${input.year}, and its outcome is not known here`,
		{
			itemIndex: item.itemIndex,
			description:
				'No new order was sent, so the accounts are not paid for twice. That execution is still placing the order on another n8n process or worker, or it was stopped (or its worker died) before its outcome was saved. Once it has finished, a new run reuses its order. If it stopped, find the document ID in LibreBOR\'s user panel, Documents, and use Document > Download; if LibreBOR shows no such order, set "Order Memory (Hours)" to 0 for one run to order it again.',
		},
	);
}

function notRecorded(context: IExecuteFunctions, { input, item }: OrderJob) {
	return new NodeOperationError(
		context.getNode(),
		`Could not record the order for ${input.nif} ${input.year} in n8n's database before sending it`,
		{
			itemIndex: item.itemIndex,
			description:
				"No order was sent. n8n's deduplication store (its processed_data table), which stops two executions from paying for the same document, kept failing or losing the record, or took so long to write it that another execution may have sent the order meanwhile. Run the workflow again; if it then says that another execution sent the order and LibreBOR's user panel (Documents) shows no such order, set \"Order Memory (Hours)\" to 0 for one run. If this persists, check n8n's database and the load on its workers.",
		},
	);
}

/** Why an order whose record did not say `send` was not sent, as the item's error. */
export function notSentError(
	context: IExecuteFunctions,
	job: OrderJob,
	verdict: Exclude<RecordVerdict, 'send'> | undefined,
): NodeOperationError {
	if (verdict === 'sentByAnother') return sentByAnotherAttempt(context, job);
	if (verdict === 'notRecorded') return notRecorded(context, job);
	return cancelledError(context.getNode(), 'The order', job.item.itemIndex);
}

/**
 * Sends an order whose record in n8n's intents store held (no other attempt of this workflow sent
 * it: not one running at the same instant or still running on another worker, nor one killed
 * mid-execution, whose static data and execution data were never saved), and records its outcome
 * in the order memory the moment LibreBOR answers. The order's own error goes on unchanged;
 * executions waiting on this order claim it again only once a refused order's record is gone.
 */
export async function sendHeldOrder(
	this: IExecuteFunctions,
	job: OrderJob,
	claim: SendClaim,
	stores: OrderStores,
): Promise<IDataObject> {
	const sending = sendOrder.call(this, job);
	await sending.then(
		(json) => claim.settle(String(json.document_id)),
		async (error: unknown) => {
			if (refusedByLibreBor(error)) await stores.forget([claim.key]);
			claim.settle(undefined);
		},
	);
	return await sending;
}
