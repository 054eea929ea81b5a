import { sleep, type IExecuteFunctions } from 'n8n-workflow';

const MAX_INTENTS = 5000;
const STORE_OPTIONS = { mode: 'entries', maxEntries: MAX_INTENTS } as const;
/** How often a record is checked again for a write of another process that dropped it. */
const MAX_CONFIRMATIONS = 4;
/** Far longer than one read and write of the store, and random, so two workers do not keep step. */
const confirmationPauseMs = () => 50 + Math.random() * 100;

export interface OrderIntents {
	/**
	 * Records, before an order is sent, that this workflow is sending it; true when an earlier
	 * attempt of this workflow recorded the same order within the last one to two windows, later
	 * than the known order placed at `knownOrderedAt` can explain: an attempt whose outcome no
	 * memory holds. Then nothing stays recorded for this attempt, which sends nothing.
	 */
	recordBeforeSending(key: string, knownOrderedAt: number | undefined): Promise<boolean>;
	/** Drops the record of an order LibreBOR refused, so that a later run may place it. */
	forget(key: string): Promise<void>;
	/** Resolves once the record is confirmed (or given up on): nothing of it runs after the node. */
	settled(key: string): Promise<void>;
}

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
 * that does not provide it), or with Order Memory off, nothing is recorded.
 */
export function orderIntents(context: IExecuteFunctions, account: string, windowMs: number): OrderIntents {
	const store = context.helpers;
	const bucketOf = (time: number) => Math.floor(time / windowMs);
	const entries = (key: string) => {
		const bucket = bucketOf(Date.now());
		return new Map([bucket - 1, bucket].map((at) => [`librebor-order|${account}#${key}@${at}`, at]));
	};
	const record = (values: string[]) => oneAtATime(() => store.checkProcessedAndRecord(values, 'node', STORE_OPTIONS));
	const remove = (values: string[]) => oneAtATime(() => store.removeProcessed(values, 'node', STORE_OPTIONS));
	const usable = windowMs > 0 && typeof store.checkProcessedAndRecord === 'function';
	// What was recorded for each key, so that forgetting it later removes the same entries.
	const recorded = new Map<string, string[]>();
	const confirmations = new Map<string, Promise<void>>();
	/**
	 * n8n's store reads its row and writes it back whole, without a lock: a worker that read the
	 * row just before this record was written writes it back without the record. Once such a write
	 * is surely over, the record is read (and written) again until it is found.
	 */
	const confirm = async (values: string[]) => {
		try {
			for (let check = 0; check < MAX_CONFIRMATIONS; check++) {
				await sleep(confirmationPauseMs());
				if ((await record(values)).new.length === 0) return;
			}
		} catch {
			// The store failed: the order memory still holds.
		}
	};
	return {
		async recordBeforeSending(key, knownOrderedAt) {
			if (!usable) return false;
			const keyEntries = entries(key);
			const values = [...keyEntries.keys()];
			recorded.set(key, values);
			// The known order was recorded before it was sent, so in its own bucket or an earlier one;
			// a record in a later bucket is another attempt.
			const explainedUpTo = knownOrderedAt === undefined ? -Infinity : bucketOf(knownOrderedAt);
			try {
				const { processed, new: added } = await record(values);
				if (processed.some((value) => (keyEntries.get(String(value)) ?? Infinity) > explainedUpTo)) {
					// Refused: a record left by this attempt would refuse the order for another window.
					if (added.length > 0) await remove(added.map(String));
					return true;
				}
				// Sending does not wait: paying twice would take a dropped record and a death within the pause.
				confirmations.set(key, confirm(values));
				return false;
			} catch {
				// No store on this host (or it failed): the guard is extra, the order memory still holds.
				return false;
			}
		},
		async forget(key) {
			const values = recorded.get(key);
			if (!values) return;
			// A confirmation still running would write the record back.
			await confirmations.get(key);
			try {
				await remove(values);
			} catch {
				// Nothing to undo when the store is not there.
			}
		},
		async settled(key) {
			await confirmations.get(key);
		},
	};
}
