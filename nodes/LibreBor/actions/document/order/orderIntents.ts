import type { IExecuteFunctions } from 'n8n-workflow';

import { waitUnlessCancelled } from '../../../helpers/cancellation';

const MAX_INTENTS = 5000;
const STORE_OPTIONS = { mode: 'entries', maxEntries: MAX_INTENTS } as const;
/**
 * How long an attempt waits between writing its record and checking it. Assumed to be longer
 * than any read-then-write of the row that started before its own write ended: one takes
 * milliseconds (attempts that raced on two queue-mode workers sent their orders 61 to 146 ms
 * apart); a second leaves room for a worker that is busy or collecting garbage, and is little
 * beside an order that LibreBOR takes minutes to prepare. It is paid once per order sent. Only
 * the mutation tests change it (test/support/shortSettle.mts): a second per order makes every
 * mutant of this file time out.
 */
export const settling = { ms: 1000 };
/**
 * The longest read-then-write of the row on which an attempt sends: a write that took longer
 * may have landed after another attempt's check, over the record on which that one sent.
 */
const maxWriteMs = () => settling.ms / 2;
/** Checks after the first write: each one more follows a write that dropped the whole record. */
const MAX_CHECKS = 3;

/** Whether an order may be sent, as this workflow's records in n8n's store say. */
export type SendVerdict = 'send' | 'sentByAnother' | 'notRecorded';

/** n8n's store reads a row and writes it back whole: this process sends it one call at a time. */
let storeCalls: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(call: () => Promise<T>): Promise<T> {
	const result = storeCalls.then(call, call);
	storeCalls = result.catch(() => undefined);
	return result;
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
 * its own, waits `settling.ms` and sends only if its own entry is still there: the row then holds
 * the own entry of at most one of them, which sends, while the others refuse. That rests on a
 * timing assumption, as any mutual exclusion without a lock does: no read-then-write of the row
 * takes longer than that. An attempt whose own write took longer than half of it does not
 * send on it; a process that stalls longer than the pause in another call (a removal, or a
 * record of another order, written back over this one's) can still break it.
 */
export function orderIntents(context: IExecuteFunctions, account: string, windowMs: number) {
	const store = context.helpers;
	const bucketOf = (time: number) => Math.floor(time / windowMs);
	const entries = (key: string) => {
		const bucket = bucketOf(Date.now());
		return new Map(
			[bucket - 1, bucket].map((at) => [`librebor-order|${account}#${key}@${at}`, at]),
		);
	};
	const ownEntry = (key: string) =>
		`librebor-attempt|${account}#${key}|${context.getExecutionId()}|${Math.random().toString(36).slice(2)}`;
	const record = (values: string[]) =>
		oneAtATime(async () => {
			const started = Date.now();
			const written = await store
				.checkProcessedAndRecord(values, 'node', STORE_OPTIONS)
				.catch(() => undefined);
			return { written, late: Date.now() - started > maxWriteMs() };
		});
	const remove = (values: string[]) =>
		oneAtATime(() => store.removeProcessed(values, 'node', STORE_OPTIONS)).catch(() => {
			// A record that stays refuses the order for one to two windows, with a message that says so.
		});
	const usable =
		windowMs > 0 &&
		typeof store.checkProcessedAndRecord === 'function' &&
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
		 * failing or losing the record, or took too long to write it. Only 'send' leaves this
		 * attempt's record in place; a cancel while waiting removes it (never another attempt's) and
		 * fails the item.
		 */
		async recordBeforeSending(
			key: string,
			knownOrderedAt: number | undefined,
			itemIndex: number,
		): Promise<SendVerdict> {
			if (!usable) return 'send';
			const keyEntries = entries(key);
			const own = ownEntry(key);
			const values = [...keyEntries.keys(), own];
			recorded.set(key, values);
			// The known order was recorded before it was sent, so in its own bucket or an earlier one;
			// a record in a later bucket is another attempt.
			const explainedUpTo = knownOrderedAt === undefined ? -Infinity : bucketOf(knownOrderedAt);
			// A cancel is acted on after one more check, so that only what this attempt may drop is dropped.
			let cancelled: unknown;
			for (let check = 0; ; check++) {
				// Every write but the first is also a check: it writes back whatever a racing write dropped.
				const { written, late } = await record(values);
				const found = written?.processed.map(String) ?? [];
				if (found.includes(own)) {
					if (cancelled === undefined) return 'send';
					// This attempt held the order (every other one refuses), and sends nothing.
					await remove(values);
					throw cancelled;
				}
				// What this write added, unless it failed or landed late: then the order's entries in
				// the row may be another attempt's, and only this attempt's own entry is dropped.
				const added = written && !late ? written.new.map(String) : [own];
				if (found.some((value) => (keyEntries.get(value) ?? -Infinity) > explainedUpTo)) {
					// Refused: the order's entries are another attempt's.
					await remove(added);
					if (cancelled !== undefined) throw cancelled;
					return 'sentByAnother';
				}
				if (cancelled !== undefined || late || check === MAX_CHECKS) {
					await remove(added);
					if (cancelled !== undefined) throw cancelled;
					return 'notRecorded';
				}
				// Written now, or dropped with the order's entries by an unrelated write, or the write
				// failed (two first writes of the row at once: one of them fails): check again once
				// every write in flight is over.
				await waitUnlessCancelled(context, settling.ms, 'The order', itemIndex).catch(
					(error: unknown) => {
						cancelled = error;
					},
				);
			}
		},
		/** Drops the record of an order LibreBOR refused, so that a later run may place it. */
		async forget(key: string) {
			const values = recorded.get(key);
			if (values) await remove(values);
		},
	};
}
