// Traffic the simulator sees: how many requests are in flight (and the most at once), and the
// API's rate limit, one of the shapes of rateLimits/, with what it admitted and refused.
import { setTimeout as realSleep } from 'node:timers/promises';

import { systemClock, type Clock } from './clock.mts';
import type { Answer } from './httpIo.mts';
import {
	checkRateLimit,
	createLimiter,
	type Limiter,
	type RateLimit,
} from './rateLimits/index.mts';

export interface Admission {
	/** The answer refusing the request; absent when it is admitted. */
	refusal?: Answer;
	/** How long the limit holds an admitted request before it is handled. */
	delayMs: number;
	/** Tells the limit the status the admitted request was answered with (0: no answer). */
	answered(status: number): void;
}

const UNLIMITED: Admission = { delayMs: 0, answered: () => undefined };

export class Traffic {
	inFlight = 0;
	maxInFlight = 0;
	/** Requests the rate limit let through. */
	admitted = 0;
	/** Requests the rate limit refused, and how many with each status. */
	throttled = 0;
	throttledByStatus: Record<string, number> = {};
	/** Admitted requests the limit held back before handling (nginx's burst queue). */
	delayed = 0;
	/**
	 * Requests waiting on the simulator's clock now (network latency, a limit's queue): on a
	 * virtual clock, a test moves time only once every request in flight waits so.
	 */
	holding = 0;
	private readonly clock: Clock;
	private limit: Required<RateLimit> | undefined;
	private limiter: Limiter | undefined;

	constructor(clock: Clock = systemClock, limit?: RateLimit) {
		this.clock = clock;
		this.rateLimit = limit;
	}

	/** The limit in force (undefined: none); setting one starts it afresh, with nothing counted yet. */
	get rateLimit(): RateLimit | undefined {
		return this.limit && { ...this.limit };
	}
	set rateLimit(limit: RateLimit | undefined) {
		this.limit = limit ? checkRateLimit(limit) : undefined;
		this.limiter = this.limit && createLimiter(this.limit);
	}

	/** The limit's average rate per second (Infinity: none); setting it sets a token bucket of that many a second. */
	get rateLimitPerSecond(): number {
		return this.limit ? (this.limit.requests * 1000) / this.limit.windowMs : Infinity;
	}
	set rateLimitPerSecond(value: number) {
		this.rateLimit =
			value > 0 && Number.isFinite(value)
				? { shape: 'token-bucket', requests: value, windowMs: 1000 }
				: undefined;
	}

	begin(): void {
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
	}

	end(): void {
		this.inFlight--;
	}

	/** Holds a request `ms` on the simulator's clock: in real time unless a test gave it a clock of its own. */
	async hold(ms: number): Promise<void> {
		this.holding++;
		try {
			await (this.clock.sleep ? this.clock.sleep(ms) : realSleep(ms));
		} finally {
			this.holding--;
		}
	}

	/** The limit's verdict on a request arriving now. */
	admit(): Admission {
		if (!this.limiter) {
			this.admitted++;
			return UNLIMITED;
		}
		const decision = this.limiter.admit(this.clock.now());
		if (decision.refusal) {
			const status = String(decision.refusal.status);
			this.throttled++;
			this.throttledByStatus[status] = (this.throttledByStatus[status] ?? 0) + 1;
			return { ...UNLIMITED, refusal: decision.refusal };
		}
		this.admitted++;
		if (decision.delayMs) this.delayed++;
		const onAnswered = decision.onAnswered;
		return {
			delayMs: decision.delayMs ?? 0,
			answered: (status) => onAnswered?.(status, this.clock.now()),
		};
	}

	/** The least time the limit needs to admit `requests` from a cold start at `startMs` (see Limiter). */
	floorMs(requests: number, startMs = 0): number {
		return this.limiter?.floorMs(requests, startMs) ?? 0;
	}

	/** Clears the counters (not the limit), to measure one run. */
	resetCounters(): void {
		this.maxInFlight = this.inFlight;
		this.throttled = 0;
		this.throttledByStatus = {};
		this.admitted = 0;
		this.delayed = 0;
	}

	summary(): Record<string, unknown> {
		return {
			inFlight: this.inFlight,
			maxInFlight: this.maxInFlight,
			throttled: this.throttled,
			throttledByStatus: { ...this.throttledByStatus },
			admitted: this.admitted,
			delayed: this.delayed,
			rateLimitPerSecond: this.limit ? this.rateLimitPerSecond : null,
			rateLimit: this.rateLimit ?? null,
		};
	}
}
