import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
} from 'n8n-workflow';

import { orderAnnualAccounts } from '../../../api/documents';
import { cancelledError } from '../../../run/cancellation';
import { neverSent } from '../../../transport/retryLoop';
import type { NodeRun } from '../../../run/nodeRun';
import type { OrderLedger, OrderOutcome } from './orderLedger';
import type { OrderJob } from './orderSettings';
import type { PlacedOrder } from './placedOrders';
import type { Refusal } from './sharedRecords';
import { waitAndDownload } from './waitAndDownload';

/** One item's new order as the run places it: its job, its key, and the hand-over of its outcome. */
export interface PlannedOrder {
	job: OrderJob;
	key: string;
	resolve: (outcome: Promise<OrderOutcome>) => void;
	reject: (error: unknown) => void;
}

const SENT_BY_ANOTHER =
	"No new order was sent, so the accounts are not paid for twice. That execution is still placing the order on another n8n process or worker; or it was stopped (or its worker died) before its outcome was saved; or LibreBOR's answer to it was lost or unclear, as that execution's item said. Once it has finished, a new run reuses its order. Otherwise, find the document ID in LibreBOR's user panel, Documents, and use Document > Download; if LibreBOR shows no such order, set \"Order Memory (Hours)\" to 0 for one run to order it again.";
const NOT_RECORDED =
	"No order was sent. n8n's deduplication store (its processed_data table), which stops two executions from paying for the same document, kept failing or losing the record, or took so long to write it that another execution may have sent the order meanwhile. Run the workflow again; if it then says that another execution sent the order and LibreBOR's user panel (Documents) shows no such order, set \"Order Memory (Hours)\" to 0 for one run. If this persists, check n8n's database and the load on its workers.";

/** Why the ledger refused to let this run send an order, as the item's error. */
function refusedError(context: IExecuteFunctions, { input, item }: OrderJob, reason: Refusal) {
	const { nif, year } = input;
	const { itemIndex } = item;
	if (reason === 'sentByAnother')
		return new NodeOperationError(
			context.getNode(),
			`Another execution of this workflow sent the order for ${nif} ${year}, and its outcome is not known here`,
			{ itemIndex, description: SENT_BY_ANOTHER },
		);
	if (reason === 'notRecorded')
		return new NodeOperationError(
			context.getNode(),
			`Could not record the order for ${nif} ${year} in n8n's database before sending it`,
			{ itemIndex, description: NOT_RECORDED },
		);
	return cancelledError(context.getNode(), 'The order', itemIndex);
}

/** LibreBOR answered the order with a 4xx: it did not take it, and it may be placed again later. */
function refusedByLibreBor(error: unknown): boolean {
	return error instanceof NodeApiError && /^4\d\d$/.test(String(error.httpCode ?? ''));
}

/**
 * Sends one order the ledger let this run hold, and settles it in the ledger the moment LibreBOR
 * answers; its wait and download start at once. False when the order failed (its error is the
 * item's, unchanged; a refused order's records go before anyone waiting on it claims it again).
 */
async function sendOrder(
	this: IExecuteFunctions,
	{ job, key, resolve, reject }: PlannedOrder,
	ledger: OrderLedger,
): Promise<boolean> {
	const { input } = job;
	const order = { ...input, sendEmail: job.sendEmail };
	const answer = await orderAnnualAccounts.call(this, order, job.item).catch(async (error) => {
		// Never sent (the run stopped while the order waited for its turn): it may be placed later.
		if (neverSent(error)) await ledger.forget([key]);
		else if (refusedByLibreBor(error)) await ledger.forget([key], true);
		else ledger.settle(key, undefined);
		reject(error);
	});
	if (!answer) return false;
	const json: IDataObject = { ...answer, nif: input.nif, year: input.year };
	ledger.settle(key, String(json.document_id));
	resolve(waitAndDownload.call(this, job, json, true));
	return true;
}

/** An order this workflow placed within the Order Memory window: waited for and downloaded like a new one. */
export function reuseOrder(this: IExecuteFunctions, job: OrderJob, order: PlacedOrder) {
	const json: IDataObject = {
		document_id: order.documentId,
		nif: job.input.nif,
		year: job.input.year,
		reused_order: true,
		ordered_at: new Date(order.orderedAt).toISOString(),
	};
	return waitAndDownload.call(this, job, json);
}

/** Until every promise has settled, or the run stops. */
async function untilSettledOrStopped(promises: Array<Promise<unknown>>, run: NodeRun) {
	const signal = run.cancelSignal;
	if (promises.length === 0 || signal?.aborted) return;
	const stopped = new Promise((resolve) =>
		signal?.addEventListener('abort', resolve, { once: true }),
	);
	await Promise.race([Promise.all(promises), stopped]);
}

/**
 * Places the run's new orders in rounds. Each round claims its orders from the ledger at once
 * (orderLedger.ts), then sends those it holds one at a time, in input order, and waits for those
 * another execution of this process is placing, to claim them again in the next round (nothing
 * is held while waiting, so two executions waiting on each other's orders cannot wait for ever).
 * Once the run stops (cancelled, or an order failed without "continue on fail") no further order
 * is sent, and the ledger forgets those held.
 */
export async function placeOrders(
	this: IExecuteFunctions,
	planned: PlannedOrder[],
	ledger: OrderLedger,
	run: NodeRun,
): Promise<void> {
	const cancelled = (order: PlannedOrder) =>
		order.reject(cancelledError(this.getNode(), 'The order', order.job.item.itemIndex));
	for (let round = planned; round.length > 0; ) {
		if (run.cancelSignal?.aborted) {
			round.forEach(cancelled);
			return;
		}
		const held: PlannedOrder[] = [];
		const waiting: Array<{ order: PlannedOrder; until: Promise<void> }> = [];
		for (const { order, claim } of await ledger.claim(round, { run })) {
			if (claim.kind === 'wait') waiting.push({ order, until: claim.until });
			else if (claim.kind === 'reuse') order.resolve(reuseOrder.call(this, order.job, claim.order));
			else if (claim.kind === 'refused') order.reject(refusedError(this, order.job, claim.reason));
			else held.push(order);
		}
		let stopped = false;
		const unsent: PlannedOrder[] = [];
		for (const order of held) {
			if (stopped || run.cancelSignal?.aborted) unsent.push(order);
			else stopped = !(await sendOrder.call(this, order, ledger)) && !this.continueOnFail();
		}
		await ledger.forget(unsent.map(({ key }) => key));
		unsent.forEach(cancelled);
		await untilSettledOrStopped(
			waiting.map(({ until }) => until),
			run,
		);
		round = waiting.map(({ order }) => order);
	}
}
