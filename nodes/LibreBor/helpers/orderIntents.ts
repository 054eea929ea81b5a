import type { IExecuteFunctions } from 'n8n-workflow';

const MAX_INTENTS = 5000;
const STORE_OPTIONS = { mode: 'entries', maxEntries: MAX_INTENTS } as const;

export interface OrderIntents {
	/**
	 * Records, before an order is sent, that this workflow is sending it; true when an earlier
	 * attempt of this workflow recorded the same order within the last one to two windows, later
	 * than the known order placed at `knownOrderedAt` can explain: an attempt whose outcome no
	 * memory holds.
	 */
	recordBeforeSending(key: string, knownOrderedAt: number | undefined): Promise<boolean>;
	/** Drops the record of an order LibreBOR refused, so that a later run may place it. */
	forget(key: string): Promise<void>;
}

/**
 * The orders this workflow is about to send, kept in n8n's deduplication store (its
 * `processed_data` table, shared by every process and worker). It is the one store n8n writes at
 * once: static data and an execution's flow context are saved only when an execution ends, so a
 * worker killed after sending an order leaves no trace of it anywhere else. Entries name a time
 * bucket of the window's length; the current and the previous bucket are checked. Without the
 * store (a host that does not provide it), or with Order Memory off, nothing is recorded.
 */
export function orderIntents(context: IExecuteFunctions, account: string, windowMs: number): OrderIntents {
	const bucketOf = (time: number) => Math.floor(time / windowMs);
	const entries = (key: string) => {
		const bucket = bucketOf(Date.now());
		return new Map([bucket - 1, bucket].map((at) => [`librebor-order|${account}#${key}@${at}`, at]));
	};
	const usable = windowMs > 0 && typeof context.helpers.checkProcessedAndRecord === 'function';
	// What was recorded for each key, so that forgetting it later removes the same entries.
	const recorded = new Map<string, string[]>();
	return {
		async recordBeforeSending(key, knownOrderedAt) {
			if (!usable) return false;
			const keyEntries = entries(key);
			recorded.set(key, [...keyEntries.keys()]);
			// The known order was recorded before it was sent, so in its own bucket or an earlier one;
			// a record in a later bucket is another attempt.
			const explainedUpTo = knownOrderedAt === undefined ? -Infinity : bucketOf(knownOrderedAt);
			try {
				const { processed } = await context.helpers.checkProcessedAndRecord([...keyEntries.keys()], 'workflow', STORE_OPTIONS);
				return processed.some((value) => (keyEntries.get(String(value)) ?? Infinity) > explainedUpTo);
			} catch {
				// No store on this host (or it failed): the guard is extra, the order memory still holds.
				return false;
			}
		},
		async forget(key) {
			if (!usable) return;
			try {
				await context.helpers.removeProcessed(recorded.get(key) ?? [...entries(key).keys()], 'workflow', STORE_OPTIONS);
			} catch {
				// Nothing to undo when the store is not there.
			}
		},
	};
}
