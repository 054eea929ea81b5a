import type { IExecuteFunctions } from 'n8n-workflow';

import { waitUnlessCancelled } from '../../../helpers/cancellation';
import { now } from '../../../helpers/clock';
import type { ItemRequest } from '../../../helpers/nodeRun';
import { ORDER_SETTLE_MS } from './orderSettle';

const MAX_INTENTS = 5000;
const STORE_OPTIONS = { mode: 'entries', maxEntries: MAX_INTENTS } as const;
/**
 * The longest read-then-write of the row on which an attempt sends: a write that took longer
 * may have landed after another attempt's check, over the record on which that one sent.
 */
const MAX_WRITE_MS = ORDER_SETTLE_MS / 2;
/** Checks after the first write: each one more follows a write that dropped the whole record. */
const MAX_CHECKS = 3;

/** Whether an order may be sent, as this workflow's records in n8n's store say. */
export type SendVerdict = 'send' | 'sentByAnother' | 'notRecorded';

/** n8n's store reads a row and writes it back whole: this process sends it one call at a time. */
const storeCalls = { last: Promise.resolve() as Promise<unknown> };
function oneAtATime<T>(call: () => Promise<T>): Promise<T> {
	const result = storeCalls.last.then(call, call);
	storeCalls.last = result.catch(() => undefined);
	return result;
}

/** This workflow's records of orders with one API account, in n8n's deduplication store. */
interface IntentRecords {
	context: IExecuteFunctions;
	account: string;
	windowMs: number;
}

const bucketOf = (records: IntentRecords, time: number) => Math.floor(time / records.windowMs);

/** The order's entries, by the time bucket each names: the current one and the previous one. */
function orderEntries(records: IntentRecords, key: string): Map<string, number> {
	const bucket = bucketOf(records, now());
	return new Map(
		[bucket - 1, bucket].map((at) => [`librebor-order|${records.account}#${key}@${at}`, at]),
	);
}

/** The entry only this attempt writes. */
function ownEntry(records: IntentRecords, key: string): string {
	const attempt = `${records.context.getExecutionId()}|${Math.random().toString(36).slice(2)}`;
	return `librebor-attempt|${records.account}#${key}|${attempt}`;
}

/** Writes the values; `late` when the write took so long that another attempt may have checked meanwhile. */
async function record(records: IntentRecords, values: string[]) {
	return await oneAtATime(async () => {
		const started = now();
		const written = await records.context.helpers
			.checkProcessedAndRecord(values, 'node', STORE_OPTIONS)
			.catch(() => undefined);
		return { written, late: now() - started > MAX_WRITE_MS };
	});
}

async function remove(records: IntentRecords, values: string[]): Promise<void> {
	await oneAtATime(
		async () => await records.context.helpers.removeProcessed(values, 'node', STORE_OPTIONS),
	).catch(() => {
		// A record that stays refuses the order for one to two windows, with a message that says so.
	});
}

/**
 * Records, before an order is sent, that this attempt is sending it, and waits until the record
 * is settled (see orderIntents). Only 'send' leaves this attempt's record in place; a cancel while
 * waiting removes it (never another attempt's) and fails the item.
 */
async function recordBeforeSending(
	records: IntentRecords,
	values: { order: Map<string, number>; own: string },
	knownOrderedAt: number | undefined,
	item: ItemRequest,
): Promise<SendVerdict> {
	const { order, own } = values;
	const all = [...order.keys(), own];
	// The known order was recorded before it was sent, so in its own bucket or an earlier one;
	// a record in a later bucket is another attempt.
	const explainedUpTo =
		knownOrderedAt === undefined ? -Infinity : bucketOf(records, knownOrderedAt);
	// A cancel is acted on after one more check, so that only what this attempt may drop is dropped.
	let cancelled: unknown;
	for (let check = 0; ; check++) {
		// Every write but the first is also a check: it writes back whatever a racing write dropped.
		const { written, late } = await record(records, all);
		const found = written?.processed.map(String) ?? [];
		if (found.includes(own)) {
			if (cancelled === undefined) return 'send';
			// This attempt held the order (every other one refuses), and sends nothing.
			await remove(records, all);
			throw cancelled;
		}
		// What this write added, unless it failed or landed late: then the order's entries in
		// the row may be another attempt's, and only this attempt's own entry is dropped.
		const added = written && !late ? written.new.map(String) : [own];
		if (found.some((value) => (order.get(value) ?? -Infinity) > explainedUpTo)) {
			// Refused: the order's entries are another attempt's.
			await remove(records, added);
			if (cancelled !== undefined) throw cancelled;
			return 'sentByAnother';
		}
		if (cancelled !== undefined || late || check === MAX_CHECKS) {
			await remove(records, added);
			if (cancelled !== undefined) throw cancelled;
			return 'notRecorded';
		}
		// Written now, or dropped with the order's entries by an unrelated write, or the write
		// failed (two first writes of the row at once: one of them fails): check again once
		// every write in flight is over.
		const node = records.context.getNode();
		await waitUnlessCancelled(node, item, ORDER_SETTLE_MS, 'The order').catch((error: unknown) => {
			cancelled = error;
		});
	}
}

/**
 * The orders this node is about to send, kept in n8n's deduplication store (its `processed_data`
 * table, shared by every process and worker), in the node's own row so that no other node's use
 * of the store can clear or trim it. It is the one store n8n writes at once: static data and an
 * execution's flow context are saved only when an execution ends, so a worker killed after
 * sending an order leaves no trace of it anywhere else. Entries name a time bucket of the
 * window's length; the current and the previous bucket are checked. Without the store (a host
 * that does not provide it, a workflow never saved), or with Order Memory off, nothing is recorded.
 *
 * n8n reads the row and writes it back whole, without a lock or a transaction: of several
 * attempts that read the row before any of them wrote it, each finds the order new, and the
 * row keeps what the last one wrote. So each attempt writes, with the order's entries, one of
 * its own, waits ORDER_SETTLE_MS and sends only if its own entry is still there: the row then holds
 * the own entry of at most one of them, which sends, while the others refuse. That rests on a
 * timing assumption, as any mutual exclusion without a lock does: no read-then-write of the row
 * takes longer than that. An attempt whose own write took longer than half of it does not
 * send on it; a process that stalls longer than the pause in another call (a removal, or a
 * record of another order, written back over this one's) can still break it.
 */
export function orderIntents(context: IExecuteFunctions, account: string, windowMs: number) {
	const records: IntentRecords = { context, account, windowMs };
	const usable =
		windowMs > 0 &&
		typeof context.helpers.checkProcessedAndRecord === 'function' &&
		!!context.getWorkflow().id;
	// What was recorded for each key, so that forgetting it later removes the same entries.
	const recorded = new Map<string, string[]>();
	return {
		/**
		 * Records, before an order is sent, that this attempt is sending it, and waits until the
		 * record is settled. 'sentByAnother': an earlier attempt of this workflow recorded the same
		 * order within the last one to two windows, later than the known order placed at
		 * `knownOrderedAt` can explain (an attempt whose outcome no memory holds), or another
		 * attempt recorded it at the same instant and its record won. 'notRecorded': the store kept
		 * failing or losing the record, or took too long to write it.
		 */
		async recordBeforeSending(
			key: string,
			knownOrderedAt: number | undefined,
			item: ItemRequest,
		): Promise<SendVerdict> {
			if (!usable) return 'send';
			const values = { order: orderEntries(records, key), own: ownEntry(records, key) };
			recorded.set(key, [...values.order.keys(), values.own]);
			return await recordBeforeSending(records, values, knownOrderedAt, item);
		},
		/** Drops the record of an order LibreBOR refused, so that a later run may place it. */
		async forget(key: string) {
			const values = recorded.get(key);
			if (values) await remove(records, values);
		},
	};
}
