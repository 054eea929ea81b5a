// A fixed window counter, the way API gateways count; modelled on Kong's rate-limiting plugin
// (kong/plugins/rate-limiting/handler.lua): one counter per window aligned to the clock (every
// second, minute or hour starts a new one; here every multiple of `windowMs` since the epoch).
// A request that finds the counter of its window at `requests` is refused and not counted; an
// admitted one is counted once answered, whatever its status, in the window it arrived in (so
// requests in flight side by side all pass the check). With or without Retry-After: Kong 3.x
// sends it (older Kong did not), so this shape does. The answer is 429
// `{"message":"API rate limit exceeded"}` with `Retry-After` = the whole seconds until the window
// ends, rounded up (Kong's RateLimit-* and X-RateLimit-* headers are left out).
import { jsonAnswer } from '../httpIo.mts';
import type { LimitDecision, Limiter, RateLimit } from './limiter.mts';

export class FixedWindow implements Limiter {
	private readonly requests: number;
	private readonly windowMs: number;
	private counts = new Map<number, number>();

	constructor(limit: RateLimit) {
		this.requests = limit.requests;
		this.windowMs = limit.windowMs;
	}

	admit(now: number): LimitDecision {
		const window = Math.floor(now / this.windowMs);
		for (const old of this.counts.keys()) if (old < window) this.counts.delete(old);
		if ((this.counts.get(window) ?? 0) >= this.requests) {
			const endsAt = (window + 1) * this.windowMs;
			const retryAfter = Math.ceil((endsAt - now) / 1000);
			return {
				refusal: jsonAnswer(
					429,
					{ message: 'API rate limit exceeded' },
					{ 'retry-after': String(retryAfter) },
				),
			};
		}
		return {
			onAnswered: () => this.counts.set(window, (this.counts.get(window) ?? 0) + 1),
		};
	}

	/** `requests` at once, then `requests` more at the start of each following window. */
	floorMs(requests: number, startMs: number): number {
		const windowsLater = Math.ceil(requests / this.requests) - 1;
		if (windowsLater <= 0) return 0;
		const windowStart = Math.floor(startMs / this.windowMs) * this.windowMs;
		return windowStart + windowsLater * this.windowMs - startMs;
	}
}
