import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { resolveBaseUrl } from '../transport/baseUrl';

const HOUR_MS = 60 * 60 * 1000;
const MAX_REMEMBERED = 5000;
const STATIC_DATA_KEY = 'libreBorOrders';

export interface RememberedOrder {
	documentId: string;
	orderedAt: number;
}

/** What one workflow has ordered, as this process knows it and as n8n's static data carries it. */
interface WorkflowOrders {
	orders: Record<string, RememberedOrder>;
	placedAt: number[];
}

interface StoredWorkflowOrders extends IDataObject {
	orders: IDataObject;
	placedAt: number[];
}

/**
 * Kept in this process for every workflow, so that an order is remembered the moment it is
 * placed: n8n writes static data to its database only when an execution ends, and not at all
 * for manual runs or a process killed mid-execution.
 */
const inProcess = new Map<string, WorkflowOrders>();
/** Orders being placed right now, so that two concurrent executions in one process send one. */
const pending = new Map<string, Promise<RememberedOrder | undefined>>();

function storedIn(context: IExecuteFunctions): StoredWorkflowOrders {
	const staticData = context.getWorkflowStaticData('global');
	const stored = staticData[STATIC_DATA_KEY] as StoredWorkflowOrders | undefined;
	if (stored && typeof stored.orders === 'object' && Array.isArray(stored.placedAt)) return stored;
	const fresh: StoredWorkflowOrders = { orders: {}, placedAt: [] };
	staticData[STATIC_DATA_KEY] = fresh;
	return fresh;
}

function isRemembered(value: unknown): value is RememberedOrder {
	const order = value as RememberedOrder | undefined;
	return !!order && typeof order.documentId === 'string' && typeof order.orderedAt === 'number';
}

function prune(orders: WorkflowOrders, now: number, keepMs: number) {
	for (const [key, order] of Object.entries(orders.orders)) {
		if (!isRemembered(order) || now - order.orderedAt >= keepMs) delete orders.orders[key];
	}
	const keys = Object.keys(orders.orders);
	for (const key of keys.slice(0, Math.max(0, keys.length - MAX_REMEMBERED))) delete orders.orders[key];
	orders.placedAt = orders.placedAt.filter((at) => typeof at === 'number' && now - at < HOUR_MS).slice(-MAX_REMEMBERED);
}

export type OrderClaim =
	| { remembered: RememberedOrder }
	| { waitFor: Promise<RememberedOrder | undefined> }
	| { settle: (documentId: string | undefined) => void };

export interface OrderMemory {
	/** The order placed for this key within the window, if any. */
	find(key: string): RememberedOrder | undefined;
	/**
	 * In one step: the remembered order, or the order another execution in this process is
	 * placing now (wait for it, then claim again), or the right to place it (call `settle`
	 * with its outcome).
	 */
	claim(key: string): OrderClaim;
	/** Orders this workflow placed in the last hour. */
	placedInLastHour(): number;
}

/**
 * The orders of this workflow, per API account, remembered for `windowMs` (0: not reused,
 * still counted for the hourly limit). Written at once to this process's memory and to the
 * workflow's static data, which n8n saves at the end of every production execution.
 */
export async function orderMemory(context: IExecuteFunctions, windowMs: number, credentialType: string): Promise<OrderMemory> {
	const now = Date.now();
	const workflowId = String(context.getWorkflow().id ?? '');
	const credentials = await context.getCredentials(credentialType, 0);
	const resolved = resolveBaseUrl(credentials);
	const account = `${'baseUrl' in resolved ? resolved.baseUrl : ''}|${String(credentials.username ?? '')}`;
	const scope = `${workflowId}|${account}`;

	let local = inProcess.get(scope);
	if (!local) {
		local = { orders: {}, placedAt: [] };
		inProcess.set(scope, local);
	}
	const stored = storedIn(context);
	const keepMs = Math.max(windowMs, HOUR_MS);
	// Merge what another process or an earlier execution saved with what this process knows.
	for (const [key, order] of Object.entries(stored.orders)) {
		if (!isRemembered(order)) continue;
		const [orderAccount] = key.split('#');
		if (orderAccount !== account) continue;
		const mine = local.orders[key];
		if (!mine || mine.orderedAt < order.orderedAt) local.orders[key] = order;
	}
	local.placedAt = [...new Set([...local.placedAt, ...stored.placedAt])].sort((a, b) => a - b);
	prune(local, now, keepMs);
	const storedPrune: WorkflowOrders = { orders: stored.orders as Record<string, RememberedOrder>, placedAt: stored.placedAt };
	prune(storedPrune, now, keepMs);
	stored.placedAt = storedPrune.placedAt;

	const fullKey = (key: string) => `${account}#${key}`;
	const pendingKey = (key: string) => `${scope}#${key}`;
	const current = local;

	const find = (key: string) => {
		if (windowMs <= 0) return undefined;
		const order = current.orders[fullKey(key)];
		return order && Date.now() - order.orderedAt < windowMs ? order : undefined;
	};

	return {
		find,
		claim(key) {
			const placingNow = pending.get(pendingKey(key));
			if (placingNow) return { waitFor: placingNow };
			const remembered = find(key);
			if (remembered) return { remembered };
			let settle: (order: RememberedOrder | undefined) => void = () => {};
			const placing = new Promise<RememberedOrder | undefined>((resolve) => (settle = resolve));
			pending.set(pendingKey(key), placing);
			const done = (documentId: string | undefined) => {
				pending.delete(pendingKey(key));
				const at = Date.now();
				current.placedAt.push(at);
				stored.placedAt.push(at);
				if (documentId === undefined) return settle(undefined);
				const order = { documentId, orderedAt: at };
				current.orders[fullKey(key)] = order;
				stored.orders[fullKey(key)] = { ...order };
				settle(order);
			};
			return { settle: done };
		},
		placedInLastHour() {
			const since = Date.now() - HOUR_MS;
			return current.placedAt.filter((at) => at > since).length;
		},
	};
}
