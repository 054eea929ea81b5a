import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { pairWith } from '../../../run/itemRunner';
import type { NodeRun } from '../../../run/nodeRun';
import { now } from '../../../time/clock';
import { orderKey, type EarlierOrder, type OrderLedger, type OrderOutcome } from './orderLedger';
import type { CompletionSettings, ItemOrder, OrderJob } from './orderSettings';
import { placeOrders, reuseOrder, type PlannedOrder } from './placeOrders';

/** An item repeating an order that failed earlier in this execution (an item, or a try) fails too, as itself. */
function notSentAgain(context: IExecuteFunctions, error: unknown, job: OrderJob) {
	const { message, description } = error as Error & { description?: string | null };
	const { nif, year } = job.input;
	return new NodeOperationError(context.getNode(), message, {
		itemIndex: job.item.itemIndex,
		description: `Not sent again: this execution already ordered ${nif} ${year} (an earlier item, or an earlier try of this node), and that order failed as above.${description ? ` ${description}` : ''}`,
	});
}

/** What an item outputs once its order is placed: LibreBOR's answer, the document's status, or its file in a field. */
function outputOf(completion: CompletionSettings | undefined): string {
	return completion?.file
		? `file:${completion.file.binaryPropertyName}`
		: completion
			? 'status'
			: 'answer';
}

/**
 * An item repeating an order of this execution gets that order's outcome, marked as reused; one
 * that asks for another output (a file where the earlier item took none, say) waits for and
 * downloads that order itself, as its options say. When the earlier item's wait or download failed
 * after the order was placed, an item that asks for it otherwise (a larger size, a longer wait)
 * tries for itself; one that asks the same fails as that item did.
 */
async function repeatOf(
	this: IExecuteFunctions,
	earlier: EarlierOrder,
	job: OrderJob,
	ledger: OrderLedger,
): Promise<OrderOutcome> {
	const placed = () => ledger.heldThisExecution(orderKey(job.input));
	const ended = await earlier.outcome.then(
		(outcome) => ({ outcome }),
		(error: unknown) => ({ error }),
	);
	if ('error' in ended) {
		const order = placed();
		const asksOtherwise = JSON.stringify(earlier.completion) !== JSON.stringify(job.completion);
		if (order && asksOtherwise) return await reuseOrder.call(this, job, order);
		throw notSentAgain(this, ended.error, job);
	}
	const { json, binary } = ended.outcome;
	if (outputOf(earlier.completion) === outputOf(job.completion))
		return { json: { ...json, reused_order: true }, binary };
	const order = placed() ?? {
		documentId: String(json.document_id),
		orderedAt: Date.parse(String(json.ordered_at)) || now(),
	};
	return await reuseOrder.call(this, job, order);
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
 * - an item repeating an order of this execution gets that order's outcome, or, when that failed
 *   after the order was placed, waits for and downloads it again (orderLedger.ts);
 * - every other item's order is reused or placed (placeOrders.ts), then waited for and downloaded
 *   side by side with the others, through the run's pacer.
 */
export function startOrders(
	this: IExecuteFunctions,
	run: NodeRun,
	orders: Array<ItemOrder | Error>,
	ledger: OrderLedger,
) {
	const planned: PlannedOrder[] = [];
	const outcomes = orders.map(async (order, itemIndex): Promise<OrderOutcome> => {
		if (order instanceof Error) throw order;
		const job: OrderJob = { ...order, item: { run, itemIndex } };
		const key = orderKey(job.input);
		const earlier = ledger.earlierOrder(key);
		if (earlier) return await repeatOf.call(this, earlier, job, ledger);
		const { outcome, order: placing } = handOver(job, key);
		ledger.keep(key, { outcome, completion: job.completion });
		const placedBefore = ledger.placedThisExecution(key);
		if (placedBefore) placing.resolve(reuseOrder.call(this, job, placedBefore));
		else planned.push(placing);
		return await outcome;
	});
	const placing = placeOrders.call(this, planned, ledger, run).catch((error: unknown) => {
		for (const order of planned) order.reject(error);
	});
	const outputs = outcomes.map(async (outcome, itemIndex): Promise<INodeExecutionData[]> => {
		const { json, binary } = await outcome;
		return pairWith(itemIndex, [binary ? { json, binary } : { json }]);
	});
	return { outputs, placing };
}
