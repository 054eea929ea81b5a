// nginx's limit_req (src/http/modules/ngx_http_limit_req_module.c), a leaky bucket in whole
// milliseconds: `excess` (in thousandths of a request) leaks at the rate and grows by one request
// per admitted request; a request that would take it past `burst` is refused and changes nothing.
// By default burst is 0, so requests closer together than 1/rate are refused: `rate=60r/m` is one
// request a second, never 60 at once. Within the burst, requests wait excess/rate before they are
// handled, unless `nodelay`. The refusal is limit_req_status, 503 by default, with nginx's HTML
// error page and no Retry-After. nginx itself takes rates per second or per minute only.
import { htmlAnswer } from '../httpIo.mts';
import type { LimitDecision, Limiter, RateLimit } from './limiter.mts';

const SERVICE_UNAVAILABLE = htmlAnswer(
	503,
	'<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n' +
		'<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n' +
		'<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
);

export class NginxLeakyBucket implements Limiter {
	private readonly limit: RateLimit;
	/** Requests per second × 1000, truncated as nginx does (`rate * 1000 / scale`). */
	private readonly rate: number;
	/** burst × 1000. */
	private readonly burst: number;
	private readonly nodelay: boolean;
	private excess = 0;
	private last: number | undefined;

	constructor(limit: RateLimit) {
		this.limit = limit;
		this.rate = Math.floor((limit.requests * 1_000_000) / limit.windowMs);
		this.burst = (limit.burst ?? 0) * 1000;
		this.nodelay = limit.nodelay ?? false;
	}

	admit(now: number): LimitDecision {
		const ms = Math.floor(now);
		const excess = this.excessAt(ms);
		if (excess > this.burst) return { refusal: SERVICE_UNAVAILABLE };
		this.excess = excess;
		this.last = ms;
		return this.nodelay ? {} : { delayMs: Math.floor((excess * 1000) / this.rate) };
	}

	/** Replays a client that sends each request the moment it fits (nginx truncates at every step). */
	floorMs(requests: number): number {
		const replay = new NginxLeakyBucket(this.limit);
		let now = 0;
		let handledAt = 0;
		for (let sent = 0; sent < requests; sent++) {
			now += replay.waitBeforeNext(now);
			handledAt = Math.max(handledAt, now + (replay.admit(now).delayMs ?? 0));
		}
		return handledAt;
	}

	/** The excess a request arriving at `ms` would leave. */
	private excessAt(ms: number): number {
		if (this.last === undefined) return 0;
		const leaked = Math.floor((this.rate * Math.abs(ms - this.last)) / 1000);
		return Math.max(0, this.excess - leaked + 1000);
	}

	/** Milliseconds from `ms` until a request fits: when the leak reaches excess + 1 request - burst. */
	private waitBeforeNext(ms: number): number {
		if (this.last === undefined) return 0;
		const toLeak = this.excess + 1000 - this.burst;
		return Math.max(0, this.last + Math.ceil((toLeak * 1000) / this.rate) - ms);
	}
}
