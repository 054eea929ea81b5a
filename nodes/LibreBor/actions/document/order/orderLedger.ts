/**
 * The ledger of orders: the one place that says whether an order may be sent, in three words.
 * - claim: for every order of a round at once, reuse it, wait for the execution of this process
 *   placing it, send it (this attempt alone holds it), or refused (and why);
 * - settle: a held order went out (counted for the hour); with its document ID, it is reused
 *   from now on;
 * - forget: held orders that were not placed (never sent, or refused by LibreBOR): their records
 *   go first, so that a later attempt, or one waiting here, may place them.
 *
 * The stores, and why each is needed (those of the workflow keep each account's orders apart
 * under its hash, transport/account.ts):
 * - this execution, in this process's memory by execution ID (here): the outcome of each order
 *   the execution made, as a promise, which an item repeating it shares (its wait, its file, or
 *   its failure; an item asking for another output, Download say, waits for and downloads the
 *   order itself), the orders it placed, and how many it sent (Max Orders per Execution). By ID, so
 *   that a loop, every run of the node, and the execution resumed here after a Wait share it; a
 *   promise fits no store n8n saves. A failure is shared by the run it happened in only when the
 *   order was not placed, or was placed: a later run (Retry On Fail, a loop's next batch) sends the
 *   one again and waits for and downloads the other again, whatever its Order Memory.
 * - this process, by workflow and account (placedOrders.ts): orders placed and their times,
 *   known the moment LibreBOR answers, and those being placed now (another execution here waits
 *   for them). The other stores reach an execution only once it ends; a manual run saves none.
 * - the workflow's static data (placedOrders.ts): the orders and their times for later
 *   executions on any process or worker; n8n saves it at the end of each production execution.
 * - the execution's flow context (placedOrders.ts): the orders for n8n's Retry of the execution,
 *   on any process or worker; a retry is given no static data.
 * - n8n's deduplication store (sharedRecords.ts): a record written before the order is sent,
 *   read by every process and worker at once, the only store written before an execution ends:
 *   it closes the race of attempts at the same instant and refuses the order of a killed worker.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { RequestSettings } from '../../../run/nodeRun';
import { now } from '../../../time/clock';
import { HOUR_MS } from '../../../time/units';
import { accountKey } from '../../../transport/account';
import { CREDENTIAL_TYPE } from '../../../transport/request';
import type { CompletionSettings, OrderInput } from './orderSettings';
import { openPlacedOrders, type PlacedOrder, type PlacedOrderClaim } from './placedOrders';
import { sharedRecords, type Refusal } from './sharedRecords';

export interface OrderOutcome {
	json: IDataObject;
	binary?: INodeExecutionData['binary'];
}

/** An order an earlier item of this execution made: its outcome, and what that item asked once it was placed. */
export interface EarlierOrder {
	outcome: Promise<OrderOutcome>;
	completion: CompletionSettings | undefined;
}

/** What the ledger lets one order do (see claim, above). */
export type OrderClaim = PlacedOrderClaim | { kind: 'refused'; reason: Refusal };

export type OrderLedger = Awaited<ReturnType<typeof openOrderLedger>>;

export function orderKey({ nif, year }: OrderInput): string {
	return `${nif}/${year}`;
}

interface ExecutionOrders {
	sent: number;
	outcomes: Map<string, EarlierOrder>;
	placed: Map<string, PlacedOrder>;
	/**
	 * Orders of the workflow's memory this execution reused: waited for and downloaded again when
	 * that failed, as one it placed is, but never taken for one it placed (a later run with Order
	 * Memory 0 reuses no order of another execution).
	 */
	reused: Map<string, PlacedOrder>;
	touchedAt: number;
}

const EXECUTION_LIFETIME_MS = 24 * HOUR_MS;
const MAX_EXECUTIONS = 1000;
const executions = new Map<string, ExecutionOrders>();

/** What this execution has ordered so far, kept a day after its last run (the least recently used go first). */
function executionOrders(executionId: string | undefined): ExecutionOrders {
	const time = now();
	const orders = (executionId !== undefined && executions.get(executionId)) || {
		sent: 0,
		outcomes: new Map(),
		placed: new Map(),
		reused: new Map(),
		touchedAt: time,
	};
	if (executionId === undefined) return orders;
	orders.touchedAt = time;
	executions.delete(executionId);
	executions.set(executionId, orders);
	for (const [id, old] of executions) {
		if (executions.size <= MAX_EXECUTIONS && time - old.touchedAt < EXECUTION_LIFETIME_MS) break;
		executions.delete(id);
	}
	return orders;
}

interface LedgerStores {
	execution: ExecutionOrders;
	placed: ReturnType<typeof openPlacedOrders>;
	records: ReturnType<typeof sharedRecords>;
}

/** The claim of every order of a round (see above): this process's memory first, then n8n's store. */
async function claimOrders<T extends { key: string }>(
	orders: T[],
	request: RequestSettings,
	{ execution, placed, records }: LedgerStores,
) {
	const claims: Array<{ order: T; claim: OrderClaim }> = orders.map((order) => ({
		order,
		claim: placed.claim(order.key),
	}));
	const held = claims.filter(({ claim }) => claim.kind === 'send').map(({ order }) => order.key);
	execution.sent += held.length;
	const known = held.map((key) => ({ key, knownOrderedAt: placed.lastOrderedAt(key) }));
	const verdicts = await records.record(known, request).catch((error: unknown) => {
		for (const key of held) placed.abandon(key);
		throw error;
	});
	for (const { order, claim } of claims)
		if (claim.kind === 'reuse') execution.reused.set(order.key, claim.order);
	return claims.map(({ order, claim }) => {
		const verdict = verdicts.get(order.key) ?? 'cancelled';
		if (claim.kind !== 'send' || verdict === 'send') return { order, claim };
		placed.abandon(order.key);
		const refused: OrderClaim = { kind: 'refused', reason: verdict };
		return { order, claim: refused };
	});
}

export async function openOrderLedger(context: IExecuteFunctions, windowMs: number) {
	const account = accountKey(await context.getCredentials(CREDENTIAL_TYPE, 0));
	const execution = executionOrders(context.getExecutionId());
	const placed = openPlacedOrders(context, account, windowMs);
	const records = sharedRecords(context, account, windowMs);
	const notPlaced = new Set<string>();
	return {
		get sentThisExecution() {
			return execution.sent;
		},
		placedInLastHour: () => placed.placedInLastHour(),
		/** Whether neither this execution nor the workflow's orders know this order. */
		isNew: (key: string) =>
			!execution.outcomes.has(key) && !execution.placed.has(key) && !placed.find(key),
		/** This order when an earlier item of this execution made it. */
		earlierOrder: (key: string) => execution.outcomes.get(key),
		/** This order when this execution placed it (reused by a later run when its outcome failed, see above). */
		placedThisExecution: (key: string) => execution.placed.get(key),
		/** This order when this execution placed it or reused it from the workflow's memory. */
		heldThisExecution: (key: string) => execution.placed.get(key) ?? execution.reused.get(key),
		/**
		 * Keeps an order's outcome for the items after it in this execution; a failed one only for
		 * the items of its run when the order was not placed, or was placed (see above).
		 */
		keep(key: string, earlier: EarlierOrder) {
			execution.outcomes.set(key, earlier);
			earlier.outcome.catch(() => {
				const known = notPlaced.has(key) || execution.placed.has(key) || execution.reused.has(key);
				if (known && execution.outcomes.get(key) === earlier) execution.outcomes.delete(key);
			});
		},
		/** Claims every order at once (see above), recording in n8n's store those this run holds. */
		claim: <T extends { key: string }>(orders: T[], request: RequestSettings) =>
			claimOrders(orders, request, { execution, placed, records }),
		/** A held order went out: LibreBOR placed it (its document ID), or its answer is lost. */
		settle(key: string, documentId: string | undefined) {
			if (documentId !== undefined) execution.placed.set(key, { documentId, orderedAt: now() });
			placed.settle(key, documentId);
		},
		/** Held orders not placed; `sent`: LibreBOR refused them, and they still count as sent. */
		async forget(keys: string[], sent = false) {
			await records.forget(keys);
			if (!sent) execution.sent -= keys.length;
			for (const key of keys) {
				notPlaced.add(key);
				if (sent) placed.settle(key, undefined);
				else placed.abandon(key);
			}
		},
	};
}
