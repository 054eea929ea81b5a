// Traffic the simulator sees: how many requests are in flight (and the most at once), and an
// optional rate limit of N requests per second (a token bucket of N), beyond which the API
// answers 429 with a Retry-After that says, in whole seconds, when the next request fits.
export class Traffic {
	inFlight = 0;
	maxInFlight = 0;
	/** Requests answered 429 by the rate limit. */
	throttled = 0;
	/** Requests the rate limit let through. */
	admitted = 0;
	private limitPerSecond = Infinity;
	private tokens = 0;
	private refilledAt = 0;

	get rateLimitPerSecond(): number {
		return this.limitPerSecond;
	}
	set rateLimitPerSecond(value: number) {
		this.limitPerSecond = value > 0 ? value : Infinity;
		this.tokens = this.limitPerSecond;
		this.refilledAt = Date.now();
	}

	begin(): void {
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
	}

	end(): void {
		this.inFlight--;
	}

	/** Undefined when the request fits the rate limit, else the Retry-After to answer, in seconds. */
	admit(now = Date.now()): number | undefined {
		if (this.limitPerSecond === Infinity) {
			this.admitted++;
			return undefined;
		}
		this.tokens = Math.min(
			this.limitPerSecond,
			this.tokens + ((now - this.refilledAt) / 1000) * this.limitPerSecond,
		);
		this.refilledAt = now;
		if (this.tokens >= 1) {
			this.tokens--;
			this.admitted++;
			return undefined;
		}
		this.throttled++;
		return Math.max(1, Math.ceil((1 - this.tokens) / this.limitPerSecond));
	}

	/** Clears the counters (not the limit), to measure one run. */
	resetCounters(): void {
		this.maxInFlight = this.inFlight;
		this.throttled = 0;
		this.admitted = 0;
	}

	summary(): Record<string, number | null> {
		return {
			inFlight: this.inFlight,
			maxInFlight: this.maxInFlight,
			throttled: this.throttled,
			admitted: this.admitted,
			rateLimitPerSecond: this.limitPerSecond === Infinity ? null : this.limitPerSecond,
		};
	}
}
