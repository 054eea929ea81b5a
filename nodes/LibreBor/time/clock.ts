import { sleep as sleepFor } from 'n8n-workflow';

/**
 * The one source of time of the nodes: every reading of the time and every wait goes through
 * here, so that a test can put the nodes on a clock of its own by replacing this module.
 */

/** The time now, in epoch milliseconds. */
export function now(): number {
	return Date.now();
}

/**
 * Waits `ms` milliseconds. An aborted `signal` ends the wait at once, without an error: the
 * caller looks at the signal to know why it woke. Only recent releases of n8n-workflow's `sleep`
 * take a signal, so the wait races the signal instead (the timer left behind ends on its own).
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await sleepFor(ms);
	if (signal.aborted) return;
	let stop = () => {};
	const aborted = new Promise<void>((resolve) => (stop = resolve));
	signal.addEventListener('abort', stop);
	await Promise.race([sleepFor(ms), aborted]);
	signal.removeEventListener('abort', stop);
}
