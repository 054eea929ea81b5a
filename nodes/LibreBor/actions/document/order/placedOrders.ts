import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { now } from '../../../time/clock';
import { HOUR_MS } from '../../../time/units';

const MAX_REMEMBERED = 5000;
const MEMORY_KEY = 'libreBorOrders';

export interface PlacedOrder {
	documentId: string;
	orderedAt: number;
	/** Kept at least as long as the window it was placed with needs it. */
	keepUntil?: number;
}

/**
 * Orders by `<account>#<nif>/<year>` (the account hashed: accountKey), and when this workflow
 * placed its recent orders.
 */
interface WorkflowOrders extends IDataObject {
	orders: Record<string, PlacedOrder>;
	placedAt: number[];
}

/**
 * This process's memory of one workflow's orders with one account: those placed, known the
 * moment LibreBOR answers, and those an execution of this process is placing right now (until
 * it settles them), so that two executions here never send the same order at once.
 */
interface ProcessMemory {
	placed: WorkflowOrders;
	placing: Map<string, { until: Promise<void>; release: () => void }>;
}
const inProcess = new Map<string, ProcessMemory>();

function isRemembered(value: unknown): value is PlacedOrder {
	const order = value as PlacedOrder | undefined;
	return (
		!!order &&
		typeof order === 'object' &&
		typeof order.documentId === 'string' &&
		typeof order.orderedAt === 'number' &&
		// A time a date can hold: a number edited past that range fails every date made of it.
		!Number.isNaN(new Date(order.orderedAt).getTime())
	);
}

/** The memory kept under our key in one of n8n's stores, repaired if someone changed its shape. */
function ordersIn(store: IDataObject): WorkflowOrders {
	const found = store[MEMORY_KEY] as WorkflowOrders | undefined;
	if (
		found &&
		typeof found.orders === 'object' &&
		found.orders !== null &&
		Array.isArray(found.placedAt)
	)
		return found;
	const fresh: WorkflowOrders = { orders: {}, placedAt: [] };
	store[MEMORY_KEY] = fresh;
	return fresh;
}

function mergeInto(target: WorkflowOrders, source: WorkflowOrders, account: string) {
	for (const [key, order] of Object.entries(source.orders)) {
		if (!isRemembered(order) || !key.startsWith(`${account}#`)) continue;
		const known = target.orders[key];
		if (!isRemembered(known) || known.orderedAt < order.orderedAt)
			target.orders[key] = { ...order };
	}
	// A time known to both counts as often as the one that holds it more often: two orders
	// placed in the same millisecond are two orders.
	const unmatched = new Map<number, number>();
	for (const at of target.placedAt) unmatched.set(at, (unmatched.get(at) ?? 0) + 1);
	const added = source.placedAt.filter((at) => {
		const left = unmatched.get(at) ?? 0;
		unmatched.set(at, left - 1);
		return left <= 0;
	});
	target.placedAt = [...target.placedAt, ...added].sort((a, b) => a - b);
}

/** Keeps an order as long as the window it was placed with, or the current one, needs it. */
function prune(memory: WorkflowOrders, time: number, keepMs: number) {
	for (const [key, order] of Object.entries(memory.orders)) {
		if (!isRemembered(order) || time >= Math.max(order.keepUntil ?? 0, order.orderedAt + keepMs))
			delete memory.orders[key];
	}
	const keys = Object.keys(memory.orders);
	for (const key of keys.slice(0, Math.max(0, keys.length - MAX_REMEMBERED)))
		delete memory.orders[key];
	// Also drops what is not a time: `now - at` is then not a number.
	memory.placedAt = memory.placedAt.filter((at) => time - at < HOUR_MS).slice(-MAX_REMEMBERED);
}

/** The places the orders are kept in, read and repaired for one workflow and account. */
function openMemories(context: IExecuteFunctions, scope: string, account: string, keepMs: number) {
	const time = now();
	const local: ProcessMemory = inProcess.get(scope) ?? {
		placed: { orders: {}, placedAt: [] },
		placing: new Map(),
	};
	inProcess.set(scope, local);
	// A retry "with the original workflow" starts from empty static data, and n8n saves it over
	// the workflow's at the end once anything touched it (even a read that creates the "global"
	// key): that would wipe every node's memory. A retry finds its own orders in the flow context.
	const stored: WorkflowOrders =
		context.getMode() === 'retry'
			? { orders: {}, placedAt: [] }
			: ordersIn(context.getWorkflowStaticData('global'));
	const execution = ordersIn(context.getContext('flow') as IDataObject);

	mergeInto(local.placed, stored, account);
	prune(local.placed, time, keepMs);
	// Write back what only this process knows: when two workers save static data at about
	// the same time n8n keeps the last one, so each later execution repairs what was dropped.
	mergeInto(stored, local.placed, account);
	prune(stored, time, keepMs);
	return { local, stored, execution };
}

/** What this process's memory lets one order do: reuse it, wait for the execution placing it, or place it. */
export type PlacedOrderClaim =
	| { kind: 'reuse'; order: PlacedOrder }
	| { kind: 'wait'; until: Promise<void> }
	| { kind: 'send' };

/**
 * The orders this workflow placed with one account (hashed: transport/account.ts), kept at once
 * in this process's memory, the workflow's static data (not by retries, see openMemories) and the
 * execution's flow context (orderLedger.ts says why each). An order is reused within `windowMs`
 * (0: never, but still counted for the hourly limit); one of the very execution being retried is
 * reused at any age.
 */
export function openPlacedOrders(context: IExecuteFunctions, account: string, windowMs: number) {
	const scope = `${String(context.getWorkflow().id ?? '')}|${account}`;
	// Kept for two windows: an order's shared record (sharedRecords.ts) can be that old.
	const keepMs = Math.max(2 * windowMs, HOUR_MS);
	const { local, stored, execution } = openMemories(context, scope, account, keepMs);
	const fullKey = (key: string) => `${account}#${key}`;

	const find = (key: string): PlacedOrder | undefined => {
		if (windowMs <= 0) return undefined;
		const ofThisExecution = execution.orders[fullKey(key)];
		if (isRemembered(ofThisExecution)) return ofThisExecution;
		const order = local.placed.orders[fullKey(key)];
		return order && now() - order.orderedAt < windowMs ? order : undefined;
	};

	/** Ends this execution's placing of the order: the executions waiting on it claim it again. */
	const release = (key: string) => {
		local.placing.get(key)?.release();
		local.placing.delete(key);
	};

	return {
		find,
		/** When the newest known order of this NIF and year was placed, also one older than the window. */
		lastOrderedAt: (key: string): number | undefined =>
			local.placed.orders[fullKey(key)]?.orderedAt,
		/** Orders this workflow placed in the last hour, as far as this process and n8n's stores know. */
		placedInLastHour: () => local.placed.placedAt.length,
		/** In one step: the order to reuse, the placing to wait for, or the right to place it. */
		claim(key: string): PlacedOrderClaim {
			const placing = local.placing.get(key);
			if (placing) return { kind: 'wait', until: placing.until };
			const order = find(key);
			if (order) return { kind: 'reuse', order };
			let release = () => {};
			const until = new Promise<void>((resolve) => (release = resolve));
			local.placing.set(key, { until, release });
			return { kind: 'send' };
		},
		/** The order was sent: counted for the hour, and remembered everywhere when it has a document ID. */
		settle(key: string, documentId: string | undefined) {
			const at = now();
			for (const memory of [local.placed, stored]) memory.placedAt.push(at);
			if (documentId !== undefined) {
				const order = { documentId, orderedAt: at, keepUntil: at + keepMs };
				for (const memory of [local.placed, stored, execution])
					memory.orders[fullKey(key)] = { ...order };
			}
			release(key);
		},
		/** The order was not sent: nothing is remembered of it. */
		abandon: release,
	};
}
