/** Requests in flight at the start, few so that little is sent past an unknown rate limit. */
export const INITIAL_IN_FLIGHT = 4;

/**
 * How many requests a run has in flight at most, grown as TCP grows its window: slow start doubles
 * it every round of fine answers until the first throttle or the ceiling, then it grows by one per
 * round of fine answers. A throttle halves it, unless a window of starts paces the run (see
 * limitModel.ts): the window then sets the pace, and the number in flight stays at the ceiling.
 */
export class InFlightLimit {
	private limit: number;
	/** Slow start goes in rounds of `limit` requests. */
	private slowStart: boolean;
	private roundStarted = 0;
	private roundAnswered = 0;
	private finesSinceRaise = 0;
	private inFlight = 0;
	private throttledOnce = false;
	private paced = false;
	/** The most requests in flight at once so far. */
	most = 0;

	/** Starts at `start` in flight (at most the ceiling), in slow start while below the ceiling. */
	constructor(
		private ceiling: number,
		start = INITIAL_IN_FLIGHT,
	) {
		this.limit = Math.max(1, Math.min(ceiling, start));
		this.slowStart = this.limit < ceiling;
	}

	/**
	 * How many more may start now. In slow start a round is answered in full before the next one
	 * starts (no request replaces an answered one), which bounds what is sent past a limit to one round.
	 */
	get free(): number {
		return this.limit - (this.slowStart ? this.roundStarted : this.inFlight);
	}

	started(): void {
		this.inFlight++;
		this.roundStarted++;
		this.most = Math.max(this.most, this.inFlight);
	}

	/** An answer: fine, throttled (429 or 503) or any other. A round of slow start ends once all its requests are answered. */
	answered(kind: 'fine' | 'throttled' | 'other'): void {
		this.inFlight--;
		if (kind === 'throttled') return;
		if (kind === 'fine' && !this.slowStart && this.limit < this.ceiling) {
			if (++this.finesSinceRaise >= this.limit) {
				this.finesSinceRaise = 0;
				this.limit++;
			}
		}
		if (!this.slowStart || ++this.roundAnswered < this.limit) return;
		this.limit = Math.min(this.ceiling, this.limit * 2);
		this.slowStart = this.limit < this.ceiling;
		this.roundStarted = this.roundAnswered = 0;
	}

	/**
	 * A run joins (`by` its Parallel Requests) or leaves (minus them) the runs this limit is shared
	 * by: the ceiling is theirs together. Below it, slow start goes on until a throttle.
	 */
	changeCeiling(by: number): void {
		this.ceiling = Math.max(1, this.ceiling + by);
		if (this.paced) this.limit = this.ceiling;
		this.limit = Math.min(this.limit, this.ceiling);
		if (this.throttledOnce || this.slowStart || this.limit >= this.ceiling) return;
		this.slowStart = true;
		this.roundStarted = this.inFlight;
		this.roundAnswered = 0;
	}

	/** The first throttle of a pause; `paced`: a window of starts sets the pace from now on. */
	throttled(paced: boolean): void {
		this.throttledOnce = true;
		this.paced = paced;
		this.slowStart = false;
		this.finesSinceRaise = 0;
		this.limit = paced ? this.ceiling : Math.max(1, Math.floor(this.limit / 2));
	}
}
