// django-tastypie's CacheThrottle (tastypie/throttle.py), as libreborme, the project LibreBOR grew
// from, throttles its API (borme/api/resources.py: CacheThrottle(throttle_at=60, timeframe=3600)):
// a sliding log, kept in the cache under the client's identifier, of whole-second times
// (int(time.time())). A request is refused when `requests` logged times are >= int(now) - timeframe,
// so a time logged in second s counts until second s + timeframe + 1 starts: a window between
// timeframe and timeframe + 1 seconds long. Resource.dispatch checks before handling and logs after
// the handler returned: a refused request is not logged, nor one whose handler raised (an error
// answer, 4xx), and requests handled side by side all pass the check before any of them is logged.
// The answer is 429 (HttpTooManyRequests) with an empty body and no Retry-After.
import type { Answer } from '../httpIo.mts';
import type { LimitDecision, Limiter, RateLimit } from './limiter.mts';

const THROTTLED: Answer = {
	status: 429,
	headers: { 'content-type': 'text/html; charset=utf-8' },
	body: '',
};

export class TastypieSlidingLog implements Limiter {
	private readonly requests: number;
	/** tastypie's `timeframe`: whole seconds. */
	private readonly timeframe: number;
	private log: number[] = [];

	constructor(limit: RateLimit) {
		this.requests = limit.requests;
		this.timeframe = Math.floor(limit.windowMs / 1000);
	}

	admit(now: number): LimitDecision {
		const oldestCounted = Math.floor(now / 1000) - this.timeframe;
		this.log = this.log.filter((second) => second >= oldestCounted);
		if (this.log.length >= this.requests) return { refusal: THROTTLED };
		return {
			onAnswered: (status, answeredAt) => {
				if (status >= 200 && status < 400) this.log.push(Math.floor(answeredAt / 1000));
			},
		};
	}

	/** `requests` at once, then the next `requests` at the start of second s + timeframe + 1. */
	floorMs(requests: number, startMs: number): number {
		const batches = Math.floor((requests - 1) / this.requests);
		if (batches <= 0) return 0;
		return batches * (this.timeframe + 1) * 1000 - (startMs % 1000);
	}
}
