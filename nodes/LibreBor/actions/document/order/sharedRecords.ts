import type { IDeduplicationOutput, IExecuteFunctions } from 'n8n-workflow';

import { waitUnlessCancelled } from '../../../run/cancellation';
import { now } from '../../../time/clock';
import type { RequestSettings } from '../../../run/nodeRun';

/**
 * How long an attempt waits between writing its record of an order and checking it. Assumed to
 * be longer than any read-then-write of the row that started before its own write ended: one
 * takes milliseconds (attempts that raced on two queue-mode workers sent their orders 61 to 146 ms
 * apart); a second leaves room for a worker that is busy or collecting garbage, and is little
 * beside an order that LibreBOR takes minutes to prepare. A run pays it once, for all its orders.
 */
const ORDER_SETTLE_MS = 1000;
const MAX_RECORDS = 5000;
const STORE_OPTIONS = { mode: 'entries', maxEntries: MAX_RECORDS } as const;
/**
 * The longest read-then-write of the row on which an attempt sends: a write that took longer
 * may have landed after another attempt's check, over the record on which that one sent.
 */
const MAX_WRITE_MS = ORDER_SETTLE_MS / 2;
/** Checks after the first write: each one more follows a write that dropped the whole record. */
const MAX_CHECKS = 3;

/**
 * Why an order may not be sent: another attempt's record holds it, the store kept failing or
 * losing this attempt's record (or wrote it too slowly), or the run was cancelled meanwhile.
 */
export type Refusal = 'sentByAnother' | 'notRecorded' | 'cancelled';
/** What the records say of one order. */
export type RecordVerdict = 'send' | Refusal;

/** n8n's store reads a row and writes it back whole: this process sends it one call at a time. */
const storeCalls = { last: Promise.resolve() as Promise<unknown> };
function oneAtATime<T>(call: () => Promise<T>): Promise<T> {
	const result = storeCalls.last.then(call, call);
	storeCalls.last = result.catch(() => undefined);
	return result;
}

/** This workflow's records of orders with one API account, in n8n's deduplication store. */
interface Records {
	context: IExecuteFunctions;
	account: string;
	windowMs: number;
}

const bucketOf = (records: Records, time: number) => Math.floor(time / records.windowMs);

/** The order's entries, by the time bucket each names: the current one and the previous one. */
function orderEntries(records: Records, key: string): Map<string, number> {
	const bucket = bucketOf(records, now());
	return new Map(
		[bucket - 1, bucket].map((at) => [`librebor-order|${records.account}#${key}@${at}`, at]),
	);
}

/** The entry only this attempt writes. */
function ownEntry(records: Records, key: string): string {
	const attempt = `${records.context.getExecutionId()}|${Math.random().toString(36).slice(2)}`;
	return `librebor-attempt|${records.account}#${key}|${attempt}`;
}

/** One write of the row: what it found and added, or nothing when it failed, and whether it was late. */
interface Write {
	written: IDeduplicationOutput | undefined;
	late: boolean;
}

/** Writes the values; `late` when the write took so long that another attempt may have checked meanwhile. */
async function record(records: Records, values: string[]): Promise<Write> {
	return await oneAtATime(async () => {
		const started = now();
		const written = await records.context.helpers
			.checkProcessedAndRecord(values, 'node', STORE_OPTIONS)
			.catch(() => undefined);
		return { written, late: now() - started > MAX_WRITE_MS };
	});
}

async function remove(records: Records, values: string[]): Promise<void> {
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
 * sharedRecords). Orders still undecided are written and checked again together. Only 'send'
 * leaves this attempt's record in place; a cancel while waiting removes what this attempt may
 * drop (never another attempt's record), after one more check.
 */
async function recordBatch(
	records: Records,
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
 * The records, in n8n's deduplication store (the node's own row of its `processed_data` table,
 * which every process and worker reads at once), of the orders this workflow is about to send.
 * Entries name a time bucket of the window's length; the current and the previous one are
 * checked. Without the store (a host that does not offer it, a workflow never saved), or with
 * Order Memory off, nothing is recorded and every order may be sent.
 *
 * n8n reads the row and writes it back whole, without a lock: so each attempt writes, with the
 * order's entries, one of its own, waits ORDER_SETTLE_MS and sends only if its own entry is still
 * there. A run records all its orders in one write and checks them in one more, and each order is
 * judged by the rules of a single one (judge). Why this holds, and what it assumes:
 * docs/orders.md.
 */
export function sharedRecords(context: IExecuteFunctions, account: string, windowMs: number) {
	const records: Records = { context, account, windowMs };
	const usable =
		windowMs > 0 &&
		typeof context.helpers.checkProcessedAndRecord === 'function' &&
		!!context.getWorkflow().id;
	// What was recorded for each key, so that forgetting it later removes the same entries.
	const recorded = new Map<string, string[]>();
	return {
		/**
		 * Records, before the orders are sent, that this attempt is sending them, and waits until the
		 * records are settled, once for all of them. An order known at `knownOrderedAt` explains a
		 * record up to its own bucket; a later one is another attempt's.
		 */
		async record(
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
		/** Drops the records of orders this attempt held but did not place, so that a later run may. */
		async forget(keys: string[]) {
			await remove(
				records,
				keys.flatMap((key) => recorded.get(key) ?? []),
			);
		},
	};
}
