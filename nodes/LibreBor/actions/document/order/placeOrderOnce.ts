import { NodeApiError, NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import type { OrderClaim, OrderOutcome } from './orderStores';
import type { OrderJob } from './orderSettings';
import { placeOrder } from './placeOrder';

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

/**
 * Places an order this process has the right to place, unless n8n's intents store says another
 * attempt of this workflow sent it and left no outcome in the order memory: one running at the
 * same instant or still running on another worker, or one killed mid-execution, whose static
 * data and execution data were never saved.
 */
export async function placeOrderOnce(
	this: IExecuteFunctions,
	job: OrderJob,
	claim: Extract<OrderClaim, { kind: 'send' }>,
): Promise<OrderOutcome> {
	const verdict = await claim.recordBeforeSending(job.item).catch((error: unknown) => {
		claim.abandon();
		throw error;
	});
	if (verdict !== 'send') {
		claim.abandon();
		throw verdict === 'sentByAnother' ? sentByAnotherAttempt(this, job) : notRecorded(this, job);
	}
	let placedId: string | undefined;
	const placing = placeOrder.call(this, job, (documentId) => {
		placedId = documentId;
		if (documentId !== undefined) claim.settle(documentId);
	});
	// The order's own error goes on unchanged. Executions waiting on this order claim it again
	// only once a refused order's record is gone.
	await placing.catch(async (error: unknown) => {
		if (placedId !== undefined) return;
		if (refusedByLibreBor(error)) await claim.forget();
		claim.settle(undefined);
	});
	return await placing;
}
