import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { cancelledError } from '../../../run/cancellation';
import { pairWith } from '../../../run/itemRunner';
import type { NodeRun } from '../../../run/nodeRun';
import { placeClaimedOrders, type ClaimedOrder, type PlannedOrder } from './orderBatch';
import type { ItemOrder, OrderJob } from './orderSettings';
import { orderKey, type OrderOutcome, type OrderStores } from './orderStores';
import { completeOrder } from './placeOrder';
import type { RememberedOrder } from './workflowOrderMemory';

/** An item repeating an order that failed earlier in this execution fails too, as itself. */
function notSentAgain(context: IExecuteFunctions, error: unknown, job: OrderJob) {
	const { message, description } = error as Error & { description?: string | null };
	const { nif, year } = job.input;
	return new NodeOperationError(context.getNode(), message, {
		itemIndex: job.item.itemIndex,
		description: `Not sent again: an earlier item of this execution ordered ${nif} ${year}, and that order failed as above.${description ? ` ${description}` : ''}`,
	});
}

/** An item repeating an order of this execution gets that order's outcome, marked as reused. */
async function repeatOf(
	this: IExecuteFunctions,
	earlier: Promise<OrderOutcome>,
	job: OrderJob,
): Promise<OrderOutcome> {
	const { json, binary } = await earlier.catch((error: unknown) => {
		throw notSentAgain(this, error, job);
	});
	return { json: { ...json, reused_order: true }, binary };
}

/** An order this workflow placed within the Order Memory window: waited for and downloaded like a new one. */
async function reuseOrder(
	this: IExecuteFunctions,
	job: OrderJob,
	order: RememberedOrder,
): Promise<OrderOutcome> {
	const json: IDataObject = {
		document_id: order.documentId,
		nif: job.input.nif,
		year: job.input.year,
		reused_order: true,
		ordered_at: new Date(order.orderedAt).toISOString(),
	};
	return await completeOrder.call(this, job, json);
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
 * Places the run's new orders in rounds. Each order is claimed at once: reused (placed by this
 * workflow within the window), or held by this run (placed in this round, all its records
 * settling together), or being placed right now by another execution in this process: those
 * wait until it is answered and are claimed again in the next round. Nothing is held while
 * waiting, so two executions that wait on each other's orders cannot wait for ever.
 */
async function placeInRounds(
	this: IExecuteFunctions,
	planned: PlannedOrder[],
	stores: OrderStores,
	run: NodeRun,
): Promise<void> {
	for (let round = planned; round.length > 0; ) {
		const claimed: ClaimedOrder[] = [];
		const waiting: Array<{ order: PlannedOrder; until: Promise<unknown> }> = [];
		for (const order of round) {
			if (run.cancelSignal?.aborted) {
				order.reject(cancelledError(this.getNode(), 'The order', order.job.item.itemIndex));
				continue;
			}
			const claim = stores.claim(order.key);
			if (claim.kind === 'wait') waiting.push({ order, until: claim.until });
			else if (claim.kind === 'reuse') order.resolve(reuseOrder.call(this, order.job, claim.order));
			else claimed.push({ order, claim });
		}
		await placeClaimedOrders.call(this, claimed, stores, run);
		await untilSettledOrStopped(
			waiting.map(({ until }) => until),
			run,
		);
		round = waiting.map(({ order }) => order);
	}
}

/** An item's outcome, to be handed over once its order is claimed. */
function handOver(job: OrderJob, key: string) {
	let resolve: PlannedOrder['resolve'] = () => {};
	let reject: PlannedOrder['reject'] = () => {};
	const outcome = new Promise<OrderOutcome>((onResolve, onReject) => {
		resolve = onResolve;
		reject = onReject;
	});
	const order: PlannedOrder = { job, key, resolve, reject };
	return { outcome, order };
}

/**
 * Starts every item's order at once, and gives back each item's output in input order, and the
 * placing of the new orders, which ends once none can go out any more:
 * - an item whose parameters are invalid fails (under "continue on fail"; otherwise the run was
 *   refused before it started);
 * - an item repeating an order of this execution gets that order's outcome (the execution ledger);
 * - every other item's order is reused or placed (placeInRounds), then waited for and downloaded
 *   side by side with the others, through the run's pacer.
 */
export function startOrders(
	this: IExecuteFunctions,
	run: NodeRun,
	orders: Array<ItemOrder | Error>,
	stores: OrderStores,
) {
	const planned: PlannedOrder[] = [];
	const outcomes = orders.map(async (order, itemIndex): Promise<OrderOutcome> => {
		if (order instanceof Error) throw order;
		const job: OrderJob = { ...order, item: { run, itemIndex } };
		const key = orderKey(job.input);
		const earlier = stores.earlierOutcome(key);
		if (earlier) return await repeatOf.call(this, earlier, job);
		const { outcome, order: placing } = handOver(job, key);
		stores.keep(key, outcome);
		planned.push(placing);
		return await outcome;
	});
	const placing = placeInRounds.call(this, planned, stores, run).catch((error: unknown) => {
		for (const order of planned) order.reject(error);
	});
	const outputs = outcomes.map(async (outcome, itemIndex): Promise<INodeExecutionData[]> => {
		const { json, binary } = await outcome;
		return pairWith(itemIndex, [binary ? { json, binary } : { json }]);
	});
	return { outputs, placing };
}
