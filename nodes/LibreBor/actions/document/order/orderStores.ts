import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { now } from '../../../time/clock';
import type { RequestSettings } from '../../../run/nodeRun';
import { HOUR_MS } from '../../../time/units';
import { CREDENTIAL_TYPE } from '../../../transport/request';
import { orderIntents, type RecordVerdict } from './orderIntents';
import type { OrderInput } from './orderSettings';
import { orderMemory, type MemoryClaim } from './workflowOrderMemory';

export interface OrderOutcome {
	json: IDataObject;
	binary?: INodeExecutionData['binary'];
}

/** The right to place a new order: this attempt alone may send it, once its shared record says `send`. */
export type SendClaim = Extract<MemoryClaim, { kind: 'send' }> & { key: string };

/**
 * What one order may do, as the order memory says: reuse an order this workflow placed within the
 * Order Memory window, wait for the order another execution in this process is placing now (then
 * claim again), or place it.
 */
export type OrderClaim = Exclude<MemoryClaim, { kind: 'send' }> | SendClaim;

export type OrderStores = Awaited<ReturnType<typeof openOrderStores>>;

/**
 * The one front for the three stores of orders, from the shortest-lived to the longest:
 * - this execution's ledger (below): every NIF and year ordered so far, and how many were sent;
 * - the workflow's order memory (workflowOrderMemory.ts): orders placed within the window;
 * - the shared intent records (orderIntents.ts): orders being sent right now, on any worker.
 */
export async function openOrderStores(context: IExecuteFunctions, windowMs: number) {
	const ledger = executionLedger(context.getExecutionId());
	const memory = await orderMemory(context, windowMs, CREDENTIAL_TYPE);
	const intents = orderIntents(context, memory.account, windowMs);
	return {
		/** Orders sent to LibreBOR in this workflow execution, by every run of the node. */
		get sentThisExecution() {
			return ledger.sent;
		},
		/** Whether neither this execution nor the order memory knows this order. */
		isNew: (key: string) => !ledger.outcomes.has(key) && !memory.find(key),
		placedInLastHour: () => memory.placedInLastHour(),
		/** The outcome of this order when an earlier item of this execution ordered it: it is this one's too. */
		earlierOutcome: (key: string) => ledger.outcomes.get(key),
		/** Keeps an order's outcome for the items after it in this execution. */
		keep(key: string, outcome: Promise<OrderOutcome>) {
			ledger.outcomes.set(key, outcome);
		},
		/** At once, without waiting: what the order memory lets this order do (see OrderClaim). */
		claim(key: string): OrderClaim {
			const claim = memory.claim(key);
			if (claim.kind !== 'send') return claim;
			ledger.sent++;
			return { ...claim, key };
		},
		/**
		 * Records the claimed orders in the shared store before any is sent, once for all of them
		 * (orderIntents.ts). A known order (older than the window, or it would be reused) explains
		 * its own record.
		 */
		async recordBeforeSending(
			claims: SendClaim[],
			request: RequestSettings,
		): Promise<Map<string, RecordVerdict>> {
			const orders = claims.map(({ key }) => ({ key, knownOrderedAt: memory.lastOrderedAt(key) }));
			return await intents.recordBeforeSending(orders, request);
		},
		/** Drops the shared records of claimed orders not placed, so that a later run may place them. */
		forget: async (keys: string[]) => await intents.forget(keys),
	};
}

export function orderKey({ nif, year }: OrderInput): string {
	return `${nif}/${year}`;
}

interface Ledger {
	sent: number;
	outcomes: Map<string, Promise<OrderOutcome>>;
	touchedAt: number;
}

const LEDGER_LIFETIME_MS = 24 * HOUR_MS;
const MAX_LEDGERS = 1000;
const ledgers = new Map<string, Ledger>();

/**
 * What this workflow execution has ordered so far. It is kept per execution, not per node
 * run, so that a loop that runs the node again and again shares one order cap and never
 * orders the same document twice.
 */
function executionLedger(executionId: string | undefined): Ledger {
	const time = now();
	const ledger = (executionId !== undefined && ledgers.get(executionId)) || {
		sent: 0,
		outcomes: new Map(),
		touchedAt: time,
	};
	if (executionId === undefined) return ledger;
	ledger.touchedAt = time;
	ledgers.delete(executionId);
	ledgers.set(executionId, ledger);
	// The least recently used first: forget those past their lifetime or beyond the bound.
	for (const [id, old] of ledgers) {
		if (ledgers.size <= MAX_LEDGERS && time - old.touchedAt < LEDGER_LIFETIME_MS) break;
		ledgers.delete(id);
	}
	return ledger;
}
