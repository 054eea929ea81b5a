import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { now } from '../../../helpers/clock';
import type { ItemRequest } from '../../../helpers/nodeRun';
import { HOUR_MS } from '../../../helpers/units';
import { CREDENTIAL_TYPE } from '../../../transport/request';
import { orderIntents, type SendVerdict } from './orderIntents';
import type { OrderInput } from './orderSettings';
import { orderMemory, type MemoryClaim, type RememberedOrder } from './workflowOrderMemory';

export interface OrderOutcome {
	json: IDataObject;
	binary?: INodeExecutionData['binary'];
}

/** What one order may do, as the three stores say. */
export type OrderClaim =
	/** Ordered earlier in this execution: that order's outcome, failure included, is this one's. */
	| { kind: 'repeat'; outcome: Promise<OrderOutcome> }
	/** Placed by this workflow within the Order Memory window: reuse it. */
	| { kind: 'reuse'; order: RememberedOrder }
	/** New: this attempt alone may place it, once its record in the shared store says `send`. */
	| (Extract<MemoryClaim, { kind: 'send' }> & {
			recordBeforeSending: (item: ItemRequest) => Promise<SendVerdict>;
			/** Drops the shared record of an order LibreBOR refused, so that a later run may place it. */
			forget: () => Promise<void>;
	  });

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
		async claim(key: string): Promise<OrderClaim> {
			const earlier = ledger.outcomes.get(key);
			if (earlier) return { kind: 'repeat', outcome: earlier };
			for (;;) {
				const claim = memory.claim(key);
				switch (claim.kind) {
					case 'wait':
						await claim.until;
						continue;
					case 'reuse':
						return claim;
					case 'send':
						return {
							...claim,
							// A known order (older than the window, or it would be reused) explains its own record.
							recordBeforeSending: async (item) =>
								await intents.recordBeforeSending(key, memory.lastOrderedAt(key), item),
							forget: async () => await intents.forget(key),
						};
				}
			}
		},
		/** Keeps an order's outcome for the items after it in this execution. */
		keep(claim: OrderClaim, key: string, outcome: Promise<OrderOutcome>) {
			if (claim.kind === 'repeat') return;
			if (claim.kind === 'send') ledger.sent++;
			ledger.outcomes.set(key, outcome);
		},
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
