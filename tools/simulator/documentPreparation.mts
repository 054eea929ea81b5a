// How the service prepares ordered documents in the background. The contract says only that a
// document stays `processing` until it is prepared (the provider's sample client polls every
// 60 s). A real back end hands each order to a pool of workers through a queue, first come first
// served; with few workers, "ready N s after its order" becomes a wait in that queue.
import type { DocumentRecord } from './types.mts';

/** How long preparing one document takes once a worker has taken it. */
export type PreparationTime =
	/** The same for every document, read whenever a document is looked at: 0 releases them all. */
	| number
	/** Drawn for each document when it is ordered, uniformly, from a generator seeded with `seed` (default 1). */
	| { minMs: number; maxMs: number; seed?: number }
	/** A function of the order, called once when it is placed. */
	| ((document: DocumentRecord) => number);

/** The time to fix on a document when it is ordered; undefined when the number setting applies. */
export function preparationDrawer(
	time: PreparationTime,
): (document: DocumentRecord) => number | undefined {
	if (typeof time === 'number') return () => undefined;
	if (typeof time === 'function') return time;
	const { minMs, maxMs, seed = 1 } = time;
	if (!(minMs >= 0 && maxMs >= minMs)) throw new Error('A range needs 0 <= minMs <= maxMs');
	const random = seededRandom(seed);
	return () => minMs + Math.floor(random() * (maxMs - minMs + 1));
}

/** mulberry32: a small, fast generator whose sequence depends only on its seed. */
function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = Math.imul(state ^ (state >>> 15), state | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

/**
 * When each document is ready, by id: in order of arrival, each goes to the first of `workers`
 * workers to be free and takes its preparation time (`fixedMs` when none was fixed at its order).
 * A document finished by a test is ready then, and frees its worker then.
 */
export function readyTimes(
	documents: DocumentRecord[],
	workers: number,
	fixedMs: number,
): Map<string, number> {
	const ready = new Map<string, number>();
	const busyUntil: number[] = [];
	const queue = [...documents].sort((a, b) => a.orderedAtMs - b.orderedAtMs);
	for (const document of queue) {
		const freeAt = busyUntil.length < workers ? -Infinity : Math.min(...busyUntil);
		const start = Math.max(document.orderedAtMs, freeAt);
		const forcedAt = document.forcedAtMs ?? Infinity;
		const done = Math.min(start + (document.preparationMs ?? fixedMs), forcedAt);
		ready.set(document.id, done);
		if (forcedAt <= start) continue;
		if (busyUntil.length < workers) busyUntil.push(done);
		else busyUntil[busyUntil.indexOf(freeAt)] = done;
	}
	return ready;
}
