import type { NodeRun, RequestSettings } from './nodeRun';

/**
 * At most `size` holders at once, served in the order they asked. A waiter whose signal fires
 * stops waiting and holds nothing.
 */
class Turns {
	private held = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(private readonly size: number) {}

	/** Waits for a turn; false, holding none, when the signal fired first. */
	async take(signal?: AbortSignal): Promise<boolean> {
		if (signal?.aborted) return false;
		if (this.held < this.size) {
			this.held++;
			return true;
		}
		return await new Promise<boolean>((resolve) => {
			const stop = () => {
				const index = this.waiting.indexOf(grant);
				if (index >= 0) this.waiting.splice(index, 1);
				resolve(false);
			};
			const grant = () => {
				signal?.removeEventListener('abort', stop);
				resolve(true);
			};
			this.waiting.push(grant);
			signal?.addEventListener('abort', stop, { once: true });
		});
	}

	/** Gives a turn back: the longest waiter gets it. */
	give(): void {
		const next = this.waiting.shift();
		if (next) next();
		else this.held--;
	}
}

const turnsOfRuns = new WeakMap<NodeRun, Turns>();

/**
 * Runs one request phase of an item (a status check, a download) once fewer than Parallel
 * Requests items of its run are in one. When every item of a run starts at once (the items wait
 * for documents side by side), the items beyond the ceiling wait here, where a cancel or a failed
 * item stops them at once, instead of in the pacer's queue, from which each would still send one
 * request. An item waiting between two checks holds no turn.
 */
export async function withTurn<T>(
	request: RequestSettings,
	stopped: () => Error,
	task: () => Promise<T>,
): Promise<T> {
	const { run } = request;
	let turns = turnsOfRuns.get(run);
	if (!turns) {
		turns = new Turns(run.pacer.settings.ceiling);
		turnsOfRuns.set(run, turns);
	}
	if (!(await turns.take(run.cancelSignal))) throw stopped();
	try {
		return await task();
	} finally {
		turns.give();
	}
}
