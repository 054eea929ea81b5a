/** A start the window counts: its time, and the request it was, when a request was given. */
interface CountedStart {
	at: number;
	request?: object;
}

/**
 * A sliding log of request starts: at most `capacity` starts in any `windowMs`. This is how
 * Django REST framework and tastypie count on the server, and the strictest of the usual shapes:
 * a client that keeps to it also keeps to a token bucket, a fixed window or a leaky bucket of the
 * same capacity and rate (a capacity of 1 is an even spacing, as nginx's limit_req wants).
 */
export class StartWindow {
	/** Oldest first; never more than `capacity` of them. */
	private starts: CountedStart[] = [];
	private capacityValue: number;

	constructor(
		capacity: number,
		public windowMs: number,
		recentStarts: number[] = [],
	) {
		this.capacityValue = Math.max(1, Math.floor(capacity));
		this.starts = recentStarts.slice(-this.capacityValue).map((at) => ({ at }));
	}

	/** The times of the starts still counted, oldest first. */
	get recentStarts(): number[] {
		return this.starts.map(({ at }) => at);
	}

	get capacity(): number {
		return this.capacityValue;
	}

	set capacity(value: number) {
		this.capacityValue = Math.max(1, Math.floor(value));
		this.starts = this.starts.slice(-this.capacityValue);
	}

	/**
	 * Milliseconds from `time` until one more start fits (at most `capacity` in a window of
	 * `windowMs`); 0 when it fits now.
	 */
	waitMs(time: number, windowMs = this.windowMs): number {
		if (this.starts.length < this.capacityValue) return 0;
		return Math.max(0, this.starts[0].at + windowMs - time);
	}

	/** The start the next one waits on: the oldest of the last `capacity`. */
	get oldestStart(): number | undefined {
		return this.starts[0]?.at;
	}

	/** The latest start counted: the window is empty `windowMs` after it. */
	get newestStart(): number | undefined {
		return this.starts.at(-1)?.at;
	}

	/** How many of the starts counted are later than `time`. */
	startsSince(time: number): number {
		return this.starts.filter(({ at }) => at > time).length;
	}

	/** Counts a start; `request` names it for `forget` and `settle`, which find it by it alone. */
	record(at: number, request?: object): void {
		this.starts.push({ at, request });
		if (this.starts.length > this.capacityValue) this.starts.shift();
	}

	/** Forgets a request LibreBOR refused: the limits it models do not count refused requests. */
	forget(request: object): void {
		const index = this.indexOf(request);
		if (index >= 0) this.starts.splice(index, 1);
	}

	/**
	 * A request was answered fine at `answeredAt`: LibreBOR counted it somewhere between its start
	 * and then, so the window counts it from the answer, the later and surer time.
	 */
	settle(request: object, answeredAt: number): void {
		const index = this.indexOf(request);
		if (index < 0) return;
		this.starts.splice(index, 1);
		let at = this.starts.length;
		while (at > 0 && this.starts[at - 1].at > answeredAt) at--;
		this.starts.splice(at, 0, { at: answeredAt });
	}

	/** Searched from the newest: the request is usually one of the last started. */
	private indexOf(request: object): number {
		for (let index = this.starts.length - 1; index >= 0; index--)
			if (this.starts[index].request === request) return index;
		return -1;
	}
}
