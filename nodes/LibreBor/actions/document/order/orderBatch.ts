import type { IExecuteFunctions } from 'n8n-workflow';

import { cancelledError } from '../../../run/cancellation';
import type { NodeRun } from '../../../run/nodeRun';
import type { RecordVerdict } from './orderIntents';
import type { OrderOutcome, OrderStores, SendClaim } from './orderStores';
import type { OrderJob } from './orderSettings';
import { completeOrder } from './placeOrder';
import { notSentError, sendHeldOrder } from './placeOrderOnce';

/** One item's new order as the run places it: its job, its key, and the hand-over of its outcome. */
export interface PlannedOrder {
	job: OrderJob;
	key: string;
	resolve: (outcome: Promise<OrderOutcome>) => void;
	reject: (error: unknown) => void;
}

/** A new order that this run alone may place, once its shared record says so. */
export interface ClaimedOrder {
	order: PlannedOrder;
	claim: SendClaim;
}

/** Sends one held order; its wait and download start at once. False when the order failed. */
async function sendOne(
	this: IExecuteFunctions,
	{ order, claim }: ClaimedOrder,
	stores: OrderStores,
): Promise<boolean> {
	try {
		const json = await sendHeldOrder.call(this, order.job, claim, stores);
		order.resolve(completeOrder.call(this, order.job, json, true));
		return true;
	} catch (error) {
		order.reject(error);
		return false;
	}
}

/** Gives up orders held but not sent: their records go first, so that no one waiting on them finds them. */
async function giveUp(this: IExecuteFunctions, unsent: ClaimedOrder[], stores: OrderStores) {
	await stores.forget(unsent.map(({ order }) => order.key));
	for (const { order, claim } of unsent) {
		claim.abandon();
		order.reject(cancelledError(this.getNode(), 'The order', order.job.item.itemIndex));
	}
}

/**
 * Places the new orders of a round: records them all in n8n's shared store before any is sent and
 * waits once for the records to settle (orderIntents.ts), then sends those whose record held, one
 * at a time and in input order. Each item's wait and download start as soon as LibreBOR has
 * answered its order, while the next order goes out. Once the run stops (cancelled, or an item
 * failed without "continue on fail") no further order is sent.
 */
export async function placeClaimedOrders(
	this: IExecuteFunctions,
	claimed: ClaimedOrder[],
	stores: OrderStores,
	run: NodeRun,
): Promise<void> {
	let verdicts: Map<string, RecordVerdict> | undefined;
	try {
		verdicts = await stores.recordBeforeSending(
			claimed.map(({ claim }) => claim),
			{ run },
		);
	} finally {
		// Should recording fail (it takes the store's own failures as "not recorded"), no claim stays held.
		if (!verdicts) for (const { claim } of claimed) claim.abandon();
	}
	const unsent: ClaimedOrder[] = [];
	let stopped = false;
	for (const held of claimed) {
		const verdict = verdicts.get(held.order.key);
		if (verdict !== 'send') {
			held.claim.abandon();
			held.order.reject(notSentError(this, held.order.job, verdict));
		} else if (stopped || run.cancelSignal?.aborted) {
			unsent.push(held);
		} else {
			stopped = !(await sendOne.call(this, held, stores)) && !this.continueOnFail();
		}
	}
	await giveUp.call(this, unsent, stores);
}
