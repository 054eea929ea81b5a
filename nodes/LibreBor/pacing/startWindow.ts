/**
 * A sliding log of request starts: at most `capacity` starts in any `windowMs`. This is how
 * Django REST framework and tastypie count on the server, and the strictest of the usual shapes:
 * a client that keeps to it also keeps to a token bucket, a fixed window or a leaky bucket of the
 * same capacity and rate (a capacity of 1 is an even spacing, as nginx's limit_req wants).
 */
export class StartWindow {
	/** Start times, oldest first; never more than `capacity` of them. */
	private starts: number[] = [];
	private capacityValue: number;

	constructor(
		capacity: number,
		public windowMs: number,
		recentStarts: number[] = [],
	) {
		this.capacityValue = Math.max(1, Math.floor(capacity));
		this.starts = recentStarts.slice(-this.capacityValue);
	}

	/** The starts still counted, oldest first (a copy). */
	get recentStarts(): number[] {
		return [...this.starts];
	}

	get capacity(): number {
		return this.capacityValue;
	}

	set capacity(value: number) {
		this.capacityValue = Math.max(1, Math.floor(value));
		this.starts = this.starts.slice(-this.capacityValue);
	}

	/** Milliseconds from `time` until one more start fits (in a window of `windowMs`); 0 when it fits now. */
	waitMs(time: number, windowMs = this.windowMs): number {
		if (this.starts.length < this.capacityValue) return 0;
		return Math.max(0, this.starts[0] + windowMs - time);
	}

	/** The start the next one waits on: the oldest of the last `capacity`. */
	get oldestStart(): number | undefined {
		return this.starts[0];
	}

	/** Forgets a start LibreBOR refused: the limits it models do not count refused requests. */
	forget(time: number): void {
		const index = this.starts.lastIndexOf(time);
		if (index >= 0) this.starts.splice(index, 1);
	}

	/**
	 * A request started at `startedAt` was answered fine at `answeredAt`: LibreBOR counted it
	 * somewhere in between, so the window counts it from the answer, the later and surer time.
	 */
	settle(startedAt: number, answeredAt: number): void {
		const index = this.starts.lastIndexOf(startedAt);
		if (index < 0) return;
		this.starts.splice(index, 1);
		let at = this.starts.length;
		while (at > 0 && this.starts[at - 1] > answeredAt) at--;
		this.starts.splice(at, 0, answeredAt);
	}

	record(time: number): void {
		this.starts.push(time);
		if (this.starts.length > this.capacityValue) this.starts.shift();
	}
}
