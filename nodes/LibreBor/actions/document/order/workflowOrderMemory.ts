import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { now } from '../../../time/clock';
import { HOUR_MS } from '../../../time/units';
import { accountKey, accountOf } from '../../../transport/account';

const MAX_REMEMBERED = 5000;
const MEMORY_KEY = 'libreBorOrders';

export interface RememberedOrder {
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
	orders: Record<string, RememberedOrder>;
	placedAt: number[];
}

/**
 * This process's memory of every workflow's orders: it knows an order the moment it is
 * placed, while n8n writes static data to its database only when an execution ends (not at
 * all for manual runs, or when the process is killed mid-execution).
 */
const inProcess = new Map<string, WorkflowOrders>();
/** Orders being placed right now, so that two concurrent executions in one process send one. */
const pending = new Map<string, Promise<RememberedOrder | undefined>>();

function isRemembered(value: unknown): value is RememberedOrder {
	const order = value as RememberedOrder | undefined;
	return (
		!!order &&
		typeof order === 'object' &&
		typeof order.documentId === 'string' &&
		typeof order.orderedAt === 'number'
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

export type MemoryClaim =
	| { kind: 'reuse'; order: RememberedOrder }
	| { kind: 'wait'; until: Promise<RememberedOrder | undefined> }
	| {
			kind: 'send';
			/** Records the outcome as soon as LibreBOR answers (undefined: no order placed). */
			settle: (documentId: string | undefined) => void;
			/** Gives up the right to place it without placing it: waiters claim again. */
			abandon: () => void;
	  };

/** The three places the orders are kept in, read and repaired for one workflow and account. */
interface Memories {
	/** This process's memory (immediate; lost on a restart). */
	local: WorkflowOrders;
	/** The workflow's static data. */
	stored: WorkflowOrders;
	/** The execution's flow context. */
	execution: WorkflowOrders;
}

/** The API account the orders are placed with, hashed (transport/account.ts). */
async function orderAccount(context: IExecuteFunctions, credentialType: string): Promise<string> {
	const { baseUrl, username } = accountOf(await context.getCredentials(credentialType, 0));
	return accountKey(baseUrl, username);
}

function openMemories(
	context: IExecuteFunctions,
	scope: string,
	account: string,
	keepMs: number,
): Memories {
	const time = now();
	let local = inProcess.get(scope);
	if (!local) {
		local = { orders: {}, placedAt: [] };
		inProcess.set(scope, local);
	}
	// A retry "with the original workflow" starts from empty static data, and n8n saves it over
	// the workflow's at the end once anything touched it (even a read that creates the "global"
	// key): that would wipe every node's memory. A retry finds its own orders in the flow context.
	const stored: WorkflowOrders =
		context.getMode() === 'retry'
			? { orders: {}, placedAt: [] }
			: ordersIn(context.getWorkflowStaticData('global'));
	const execution = ordersIn(context.getContext('flow') as IDataObject);

	mergeInto(local, stored, account);
	prune(local, time, keepMs);
	// Write back what only this process knows: when two workers save static data at about
	// the same time n8n keeps the last one, so each later execution repairs what was dropped.
	mergeInto(stored, local, account);
	prune(stored, time, keepMs);
	return { local, stored, execution };
}

/**
 * In one step: the order to reuse, or the order another execution in this process is placing now
 * (wait for it, then claim again), or the right to place it.
 */
function claimOrder(
	pendingKey: string,
	find: () => RememberedOrder | undefined,
	record: (documentId: string | undefined) => RememberedOrder | undefined,
): MemoryClaim {
	const placingNow = pending.get(pendingKey);
	if (placingNow) return { kind: 'wait', until: placingNow };
	const order = find();
	if (order) return { kind: 'reuse', order };
	let announce: (order: RememberedOrder | undefined) => void = () => {};
	pending.set(pendingKey, new Promise((resolve) => (announce = resolve)));
	return {
		kind: 'send',
		settle: (documentId) => {
			pending.delete(pendingKey);
			announce(record(documentId));
		},
		abandon: () => {
			pending.delete(pendingKey);
			announce(undefined);
		},
	};
}

/**
 * The orders of this workflow with one API account, kept in three places at once:
 * - this process's memory (immediate; lost on a restart);
 * - the workflow's static data, which n8n saves at the end of every production execution
 *   (failed ones too) and loads for every later execution, in any process or worker (not
 *   used by retries, see openMemories);
 * - the execution's flow context, which n8n saves with the execution's data and hands to a
 *   retry of it (with the original or the current workflow), in any process or worker.
 * An order is reused within `windowMs` (0: never, but still counted for the hourly limit);
 * an order of the very execution being retried is reused at any age.
 */
export async function orderMemory(
	context: IExecuteFunctions,
	windowMs: number,
	credentialType: string,
) {
	const account = await orderAccount(context, credentialType);
	const scope = `${String(context.getWorkflow().id ?? '')}|${account}`;
	// Kept for two windows: an order's record in the intents store (orderIntents.ts) can be that old.
	const keepMs = Math.max(2 * windowMs, HOUR_MS);
	const { local, stored, execution } = openMemories(context, scope, account, keepMs);
	const fullKey = (key: string) => `${account}#${key}`;

	const find = (key: string): RememberedOrder | undefined => {
		if (windowMs <= 0) return undefined;
		const ofThisExecution = execution.orders[fullKey(key)];
		if (isRemembered(ofThisExecution)) return ofThisExecution;
		const order = local.orders[fullKey(key)];
		return order && now() - order.orderedAt < windowMs ? order : undefined;
	};

	const record = (key: string, documentId: string | undefined) => {
		const at = now();
		for (const memory of [local, stored]) memory.placedAt.push(at);
		if (documentId === undefined) return undefined;
		const order = { documentId, orderedAt: at, keepUntil: at + keepMs };
		for (const memory of [local, stored, execution]) memory.orders[fullKey(key)] = { ...order };
		return order;
	};

	return {
		/** The API account the orders are placed with, hashed. */
		account,
		/** The order of this NIF and year to reuse, if any. */
		find,
		/** When the newest known order of this NIF and year was placed, also one older than the window. */
		lastOrderedAt(key: string): number | undefined {
			// This execution's own order of it would be reused, not ordered again.
			return local.orders[fullKey(key)]?.orderedAt;
		},
		/** The order to reuse, the order to wait for, or the right to place it (see claimOrder). */
		claim: (key: string): MemoryClaim =>
			claimOrder(
				`${scope}#${key}`,
				() => find(key),
				(documentId) => record(key, documentId),
			),
		/** Orders this workflow placed in the last hour (pruned on opening), as far as this process and n8n's stores know. */
		placedInLastHour() {
			return local.placedAt.length;
		},
	};
}
