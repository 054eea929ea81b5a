// Django REST framework's SimpleRateThrottle (rest_framework/throttling.py; UserRateThrottle keys
// it by account), rates such as `60/min` or `1000/hour`: a sliding log of the times of the
// requests it let through, each leaving the log exactly `windowMs` after it came in. A request that
// finds `requests` times in the log is refused and not logged. The answer is 429
// `{"detail":"Request was throttled. Expected available in N seconds."}` with `Retry-After: N`,
// N = ceil(wait()), and wait() = (window - age of the oldest logged time) / (requests - logged + 1):
// with the log full, the time until its oldest entry leaves, so Retry-After is never too short.
import { jsonAnswer } from '../httpIo.mts';
import type { LimitDecision, Limiter, RateLimit } from './limiter.mts';

export class DrfSlidingLog implements Limiter {
	private readonly requests: number;
	private readonly windowMs: number;
	/** Admission times, oldest first. */
	private readonly log: number[] = [];

	constructor(limit: RateLimit) {
		this.requests = limit.requests;
		this.windowMs = limit.windowMs;
	}

	admit(now: number): LimitDecision {
		while (this.log.length > 0 && this.log[0] <= now - this.windowMs) this.log.shift();
		if (this.log.length < this.requests) {
			this.log.push(now);
			return {};
		}
		const available = this.requests - this.log.length + 1;
		const waitSeconds = (this.windowMs - (now - this.log[0])) / available / 1000;
		const wait = Math.ceil(waitSeconds);
		return {
			refusal: jsonAnswer(
				429,
				{
					detail: `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.`,
				},
				{ 'retry-after': String(wait) },
			),
		};
	}

	/** `requests` at once, then the next `requests` each time the first of them leaves the log. */
	floorMs(requests: number): number {
		if (requests <= this.requests) return 0;
		return Math.floor((requests - 1) / this.requests) * this.windowMs;
	}
}
