/**
 * At most `size` holders at once, served in the order they asked. A waiter whose signal fires
 * stops waiting and holds nothing.
 */
export class Turns {
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

	/**
	 * Runs one request phase of an item (a status check, a download) in a turn, given back after.
	 * When every item of a run starts at once (the items wait for documents side by side), the
	 * items beyond Parallel Requests wait here, where a cancel or a failed item stops them at once
	 * (`stopped()` is thrown, nothing run), instead of in the pacer's queue, from which each would
	 * still send one request. An item waiting between two checks holds no turn.
	 */
	async inTurn<T>(
		{ signal, stopped }: { signal?: AbortSignal; stopped: () => Error },
		task: () => Promise<T>,
	): Promise<T> {
		if (!(await this.take(signal))) throw stopped();
		try {
			return await task();
		} finally {
			this.give();
		}
	}

	/** Gives a turn back: the longest waiter gets it. */
	give(): void {
		const next = this.waiting.shift();
		if (next) next();
		else this.held--;
	}
}
