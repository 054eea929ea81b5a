import type { IDeduplicationOutput, IExecuteFunctions } from 'n8n-workflow';

import { waitUnlessCancelled } from '../../../run/cancellation';
import { now } from '../../../time/clock';
import type { RequestSettings } from '../../../run/nodeRun';

/**
 * How long an attempt waits between writing its record of an order and checking it. Assumed to
 * be longer than any read-then-write of the row that started before its own write ended: one
 * takes milliseconds (attempts that raced on two queue-mode workers sent their orders 61 to 146 ms
 * apart); a second leaves room for a worker that is busy or collecting garbage, and is little
 * beside an order that LibreBOR takes minutes to prepare. It is paid once per order sent.
 */
const ORDER_SETTLE_MS = 1000;
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
/** A verdict, or the execution was cancelled (or its run stopped) before the record settled. */
export type RecordVerdict = SendVerdict | 'cancelled';

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

/** One write of the row: what it found and added, or nothing when it failed, and whether it was late. */
interface Write {
	written: IDeduplicationOutput | undefined;
	late: boolean;
}

/** Writes the values; `late` when the write took so long that another attempt may have checked meanwhile. */
async function record(records: IntentRecords, values: string[]): Promise<Write> {
	return await oneAtATime(async () => {
		const started = now();
		const written = await records.context.helpers
			.checkProcessedAndRecord(values, 'node', STORE_OPTIONS)
			.catch(() => undefined);
		return { written, late: now() - started > MAX_WRITE_MS };
	});
}

async function remove(records: IntentRecords, values: string[]): Promise<void> {
	if (values.length === 0) return;
	await oneAtATime(
		async () => await records.context.helpers.removeProcessed(values, 'node', STORE_OPTIONS),
	).catch(() => {
		// A record that stays refuses the order for one to two windows, with a message that says so.
	});
}

/** One order's record: the order's entries, by the time bucket each names, and this attempt's own. */
interface OrderRecord {
	key: string;
	order: Map<string, number>;
	own: string;
	/**
	 * The known order was recorded before it was sent, so in its own bucket or an earlier one; a
	 * record in a later bucket is another attempt.
	 */
	explainedUpTo: number;
}

const valuesOf = (entry: OrderRecord) => [...entry.order.keys(), entry.own];

/** How far the batch has got: the check a write is, and whether a cancel came during the pause. */
interface Round {
	check: number;
	cancelled: boolean;
}

/**
 * What one write of the batch says of one order: its verdict and what of it to remove, or no
 * verdict yet (it is checked again after the pause). The rules of a single order's record.
 */
function judge(
	entry: OrderRecord,
	{ written, late }: Write,
	{ check, cancelled }: Round,
): { verdict?: RecordVerdict; remove: string[] } {
	const found = new Set(written?.processed.map(String) ?? []);
	if (found.has(entry.own)) {
		// This attempt holds the order (every other one refuses); cancelled, it sends nothing.
		return cancelled
			? { verdict: 'cancelled', remove: valuesOf(entry) }
			: { verdict: 'send', remove: [] };
	}
	// What this write added, unless it failed or landed late: then the order's entries in the
	// row may be another attempt's, and only this attempt's own entry is dropped.
	const added = written && !late ? new Set(written.new.map(String)) : new Set([entry.own]);
	const remove = valuesOf(entry).filter((value) => added.has(value));
	const another = [...entry.order].some(
		([value, bucket]) => bucket > entry.explainedUpTo && found.has(value),
	);
	// Refused: the order's entries are another attempt's.
	if (another) return { verdict: cancelled ? 'cancelled' : 'sentByAnother', remove };
	if (cancelled || late || check === MAX_CHECKS)
		return { verdict: cancelled ? 'cancelled' : 'notRecorded', remove };
	// Written now, or dropped with the order's entries by an unrelated write, or the write failed
	// (two first writes of the row at once: one of them fails): check again once every write in
	// flight is over.
	return { remove: [] };
}

/**
 * Records, before the orders are sent, that this attempt is sending them, in one write of the
 * row, waits once until the records are settled, and checks them all in one write (see
 * orderIntents). Orders still undecided are written and checked again together. Only 'send'
 * leaves this attempt's record in place; a cancel while waiting removes what this attempt may
 * drop (never another attempt's record), after one more check.
 */
async function recordBatch(
	records: IntentRecords,
	batch: OrderRecord[],
	request: RequestSettings,
): Promise<Map<string, RecordVerdict>> {
	const verdicts = new Map<string, RecordVerdict>();
	const round: Round = { check: 0, cancelled: false };
	for (let pending = batch; pending.length > 0; round.check++) {
		// Every write but the first is also a check: it writes back whatever a racing write dropped.
		const write = await record(records, pending.flatMap(valuesOf));
		const judged = pending.map((entry) => ({ entry, ...judge(entry, write, round) }));
		await remove(
			records,
			judged.flatMap((outcome) => outcome.remove),
		);
		for (const { entry, verdict } of judged) if (verdict) verdicts.set(entry.key, verdict);
		pending = judged.filter((outcome) => !outcome.verdict).map((outcome) => outcome.entry);
		if (pending.length === 0) break;
		const node = records.context.getNode();
		await waitUnlessCancelled(node, request, ORDER_SETTLE_MS, 'The order').catch(() => {
			round.cancelled = true;
		});
	}
	return verdicts;
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
 *
 * A run records every order it is about to send at once: one write carries the entries of all of
 * them, one pause settles them all, one write checks them all, and each order is then judged by
 * the rules of a single order. The argument above holds per order and asks only that each write
 * be one read-then-write of the row (a batch's is one, of a few entries per order) and that the
 * check come a whole pause after the write of the record ended: both hold for every order of a
 * batch, so the race stays closed as it was. Of two runs whose batches share orders, the run
 * whose write landed last holds all of its orders; the other finds the shared ones recorded
 * without its own entry (refused) and its other orders missing (written and checked again, as
 * after any write that dropped them). The orders are then sent one at a time, the last one
 * seconds after the check; that opens nothing: from the check on, the record keeps every other
 * attempt away until this run removes it, whenever the order goes out.
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
		 * Records, before the orders are sent, that this attempt is sending them, and waits until the
		 * records are settled, once for all of them. Per order: 'sentByAnother': an earlier attempt
		 * of this workflow recorded the same order within the last one to two windows, later than the
		 * known order placed at `knownOrderedAt` can explain (an attempt whose outcome no memory
		 * holds), or another attempt recorded it at the same instant and its record won.
		 * 'notRecorded': the store kept failing or losing the record, or took too long to write it.
		 * 'cancelled': the run was cancelled or stopped meanwhile.
		 */
		async recordBeforeSending(
			orders: Array<{ key: string; knownOrderedAt: number | undefined }>,
			request: RequestSettings,
		): Promise<Map<string, RecordVerdict>> {
			if (!usable) return new Map(orders.map(({ key }) => [key, 'send']));
			const batch = orders.map(({ key, knownOrderedAt }): OrderRecord => {
				const explainedUpTo =
					knownOrderedAt === undefined ? -Infinity : bucketOf(records, knownOrderedAt);
				const entry = {
					key,
					order: orderEntries(records, key),
					own: ownEntry(records, key),
					explainedUpTo,
				};
				recorded.set(key, valuesOf(entry));
				return entry;
			});
			return await recordBatch(records, batch, request);
		},
		/**
		 * Drops the records of orders this attempt held but did not place: LibreBOR refused them, or
		 * the run stopped before sending them, so that a later run may place them.
		 */
		async forget(keys: string[]) {
			await remove(
				records,
				keys.flatMap((key) => recorded.get(key) ?? []),
			);
		},
	};
}
