// Token bucket: `requests` tokens, refilled continuously at `requests` per `windowMs`; a request
// takes one, and a request that finds none is refused without taking anything. The generic
// gateway limiter, and the simulator's first shape, still its default. It answers as the
// simulator always has: 429 with DRF's `{"detail":"Request was throttled."}` and a Retry-After in
// whole seconds, rounded up (so at least 1), until the next token.
import { jsonAnswer } from '../httpIo.mts';
import type { LimitDecision, Limiter, RateLimit } from './limiter.mts';

export class TokenBucket implements Limiter {
	private readonly requests: number;
	private readonly windowMs: number;
	/** Tokens × windowMs, so that refilling `requests` a millisecond stays in whole numbers. */
	private units: number;
	private refilledAt: number | undefined;

	constructor(limit: RateLimit) {
		this.requests = limit.requests;
		this.windowMs = limit.windowMs;
		this.units = limit.requests * limit.windowMs;
	}

	admit(now: number): LimitDecision {
		const elapsed = this.refilledAt === undefined ? 0 : Math.max(0, now - this.refilledAt);
		this.units = Math.min(this.requests * this.windowMs, this.units + elapsed * this.requests);
		this.refilledAt = now;
		if (this.units >= this.windowMs) {
			this.units -= this.windowMs;
			return {};
		}
		const waitMs = (this.windowMs - this.units) / this.requests;
		const retryAfter = Math.ceil(waitMs / 1000);
		return {
			refusal: jsonAnswer(
				429,
				{ detail: 'Request was throttled.' },
				{ 'retry-after': String(retryAfter) },
			),
		};
	}

	/** The full bucket at once, then one request per windowMs / requests. */
	floorMs(requests: number): number {
		if (requests <= this.requests) return 0;
		return ((requests - this.requests) * this.windowMs) / this.requests;
	}
}
