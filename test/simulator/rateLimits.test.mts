// Each rate-limit shape on its own, in virtual time: what it admits per window, what it answers
// when it refuses, that a client waiting out its Retry-After is let in, and its floor.
import { describe, expect, it } from 'vitest';

import {
	createLimiter,
	type LimitDecision,
	type Limiter,
	type RateLimit,
} from '../../tools/simulator/index.mts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** A Monday, 09:00:00.000 UTC: the start of a second, a minute and an hour. */
const T0 = Date.UTC(2025, 0, 6, 9);

/** Sends `count` requests at `now`, each answered with `status` at once; the verdicts. */
function send(limiter: Limiter, count: number, now: number, status = 200): LimitDecision[] {
	return Array.from({ length: count }, () => {
		const decision = limiter.admit(now);
		decision.onAnswered?.(status, now);
		return decision;
	});
}

const admittedOf = (decisions: LimitDecision[]) => decisions.filter((d) => !d.refusal).length;
const retryAfterOf = (decision: LimitDecision) => decision.refusal?.headers['retry-after'];

/** The time a client needs for `requests` when it tries again every millisecond until let in. */
function greedyClientMs(limit: RateLimit, requests: number, startMs: number): number {
	const limiter = createLimiter(limit);
	let now = startMs;
	let doneAt = startMs;
	for (let admitted = 0; admitted < requests; ) {
		const decision = limiter.admit(now);
		if (decision.refusal) {
			now++;
			continue;
		}
		decision.onAnswered?.(200, now);
		doneAt = Math.max(doneAt, now + (decision.delayMs ?? 0));
		admitted++;
	}
	return doneAt - startMs;
}

describe('token bucket (the default shape)', () => {
	it('admits a full bucket at once, then one request per window / requests, with Retry-After in whole seconds', () => {
		const limiter = createLimiter({ requests: 60, windowMs: HOUR });
		expect(admittedOf(send(limiter, 60, T0))).toBe(60);
		const [refused] = send(limiter, 1, T0);
		expect(refused.refusal?.status).toBe(429);
		expect(JSON.parse(refused.refusal?.body as string)).toEqual({
			detail: 'Request was throttled.',
		});
		expect(retryAfterOf(refused)).toBe('60');
		expect(admittedOf(send(limiter, 1, T0 + MINUTE - 1))).toBe(0);
		expect(admittedOf(send(limiter, 2, T0 + MINUTE))).toBe(1);
	});

	it('answers Retry-After: 1, never 0, at a rate of several a second', () => {
		const limiter = createLimiter({ shape: 'token-bucket', requests: 20, windowMs: SECOND });
		expect(admittedOf(send(limiter, 20, T0))).toBe(20);
		expect(retryAfterOf(send(limiter, 1, T0)[0])).toBe('1');
		expect(admittedOf(send(limiter, 2, T0 + 50))).toBe(1);
	});
});

describe("Django REST framework's sliding log", () => {
	const drf = (): Limiter =>
		createLimiter({ shape: 'sliding-log-drf', requests: 60, windowMs: HOUR });

	it('admits 60 an hour counted from each request, and says when the oldest leaves the log', () => {
		const limiter = drf();
		expect(admittedOf(send(limiter, 30, T0))).toBe(30);
		expect(admittedOf(send(limiter, 31, T0 + 30 * MINUTE))).toBe(30);
		const refused = send(limiter, 1, T0 + 40 * MINUTE + 0.5 * SECOND)[0];
		expect(refused.refusal?.status).toBe(429);
		expect(retryAfterOf(refused)).toBe('1200');
		expect(JSON.parse(refused.refusal?.body as string)).toEqual({
			detail: 'Request was throttled. Expected available in 1200 seconds.',
		});
		expect(admittedOf(send(limiter, 31, T0 + HOUR))).toBe(30);
		expect(retryAfterOf(send(limiter, 1, T0 + HOUR + 30 * MINUTE - SECOND)[0])).toBe('1');
	});

	it('does not log the requests it refuses', () => {
		const limiter = drf();
		send(limiter, 60, T0);
		expect(admittedOf(send(limiter, 1000, T0 + 59 * MINUTE))).toBe(0);
		expect(admittedOf(send(limiter, 61, T0 + HOUR))).toBe(60);
	});
});

describe("tastypie's sliding log (libreborme's 60 requests an hour)", () => {
	const tastypie = (): Limiter =>
		createLimiter({ shape: 'sliding-log-tastypie', requests: 60, windowMs: HOUR });

	it('refuses the 61st with an empty 429 and no Retry-After, until a whole second past the hour', () => {
		const limiter = tastypie();
		expect(admittedOf(send(limiter, 60, T0 + 999))).toBe(60);
		const refused = send(limiter, 1, T0 + HOUR + 999)[0];
		expect(refused.refusal).toEqual({
			status: 429,
			headers: { 'content-type': 'text/html; charset=utf-8' },
			body: '',
		});
		expect(admittedOf(send(limiter, 61, T0 + HOUR + SECOND))).toBe(60);
	});

	it('counts only requests answered without an error, once answered', () => {
		const limiter = tastypie();
		expect(admittedOf(send(limiter, 60, T0, 400))).toBe(60);
		const inFlight = Array.from({ length: 70 }, () => limiter.admit(T0));
		expect(admittedOf(inFlight)).toBe(70);
		for (const decision of inFlight) decision.onAnswered?.(200, T0);
		expect(admittedOf(send(limiter, 1, T0))).toBe(0);
	});
});

describe('fixed window (Kong)', () => {
	const kong = (): Limiter =>
		createLimiter({ shape: 'fixed-window', requests: 60, windowMs: MINUTE });

	it('admits 60 in each clock minute and says how long until the next one starts', () => {
		const limiter = kong();
		expect(admittedOf(send(limiter, 60, T0 + 10 * SECOND))).toBe(60);
		const refused = send(limiter, 1, T0 + 10 * SECOND + 1)[0];
		expect(refused.refusal?.status).toBe(429);
		expect(JSON.parse(refused.refusal?.body as string)).toEqual({
			message: 'API rate limit exceeded',
		});
		expect(retryAfterOf(refused)).toBe('50');
		expect(retryAfterOf(send(limiter, 1, T0 + MINUTE - 1)[0])).toBe('1');
		expect(admittedOf(send(limiter, 61, T0 + MINUTE))).toBe(60);
	});

	it('counts a request once answered, in the window it arrived in', () => {
		const limiter = kong();
		const late = limiter.admit(T0 + MINUTE - 1);
		expect(admittedOf(send(limiter, 100, T0 + MINUTE - 1))).toBe(60);
		late.onAnswered?.(200, T0 + MINUTE + 5);
		expect(admittedOf(send(limiter, 61, T0 + MINUTE + 5))).toBe(60);
	});
});

describe("nginx's leaky bucket (limit_req)", () => {
	it('by default (no burst) lets 60r/m through one a second, refusing with a 503 page and no Retry-After', () => {
		const limiter = createLimiter({ shape: 'leaky-bucket-nginx', requests: 60, windowMs: MINUTE });
		expect(send(limiter, 1, T0)[0]).toEqual({ delayMs: 0 });
		const refused = send(limiter, 1, T0 + 999)[0];
		expect(refused.refusal?.status).toBe(503);
		expect(refused.refusal?.headers).toEqual({ 'content-type': 'text/html; charset=utf-8' });
		expect(refused.refusal?.body).toContain('<title>503 Service Temporarily Unavailable</title>');
		expect(admittedOf(send(limiter, 1, T0 + SECOND))).toBe(1);
	});

	it('with a burst, holds the excess back at the rate, or lets it through at once with nodelay', () => {
		const limit = {
			shape: 'leaky-bucket-nginx',
			requests: 10,
			windowMs: SECOND,
			burst: 5,
		} as const;
		const delays = send(createLimiter(limit), 7, T0).map((d) => d.delayMs ?? d.refusal?.status);
		expect(delays).toEqual([0, 100, 200, 300, 400, 500, 503]);
		const nodelay = send(createLimiter({ ...limit, nodelay: true }), 7, T0);
		expect(nodelay.map((d) => d.delayMs ?? d.refusal?.status)).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			503,
		]);
	});

	it('changes nothing for a refused request', () => {
		const limiter = createLimiter({ shape: 'leaky-bucket-nginx', requests: 1, windowMs: SECOND });
		send(limiter, 1, T0);
		for (let ms = 1; ms < SECOND; ms += 10) expect(admittedOf(send(limiter, 1, T0 + ms))).toBe(0);
		expect(admittedOf(send(limiter, 1, T0 + SECOND))).toBe(1);
	});
});

describe('Retry-After', () => {
	const shapes: RateLimit[] = [
		{ shape: 'token-bucket', requests: 7, windowMs: 3 * SECOND },
		{ shape: 'token-bucket', requests: 60, windowMs: HOUR },
		{ shape: 'sliding-log-drf', requests: 7, windowMs: 3 * SECOND },
		{ shape: 'sliding-log-drf', requests: 60, windowMs: HOUR },
		{ shape: 'fixed-window', requests: 7, windowMs: 3 * SECOND },
		{ shape: 'fixed-window', requests: 60, windowMs: HOUR },
	];

	it.each(shapes)(
		'lets a client that waits it out in at once, and is never a second longer than needed, for $shape $requests per $windowMs ms',
		(limit) => {
			const limiter = createLimiter(limit);
			let seed = 42;
			const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
			let now = T0 + Math.floor(random() * limit.windowMs);
			let refusals = 0;
			for (let request = 0; request < 300; request++) {
				now += Math.floor(random() * random() * (limit.windowMs / limit.requests) * 2);
				const [decision] = send(limiter, 1, now);
				if (!decision.refusal) continue;
				refusals++;
				const waitMs = Number(retryAfterOf(decision)) * SECOND;
				expect(waitMs).toBeGreaterThanOrEqual(SECOND);
				if (limit.shape !== 'token-bucket' && waitMs > SECOND)
					expect(limiter.admit(now + waitMs - SECOND).refusal).toBeDefined();
				now += waitMs;
				expect(send(limiter, 1, now)[0].refusal).toBeUndefined();
			}
			expect(refusals).toBeGreaterThanOrEqual(3);
		},
	);
});

describe('the floor: the least time the limit itself needs for N requests from a cold start', () => {
	it.each([
		[{ shape: 'token-bucket', requests: 60, windowMs: HOUR }, 61, 0, MINUTE],
		[{ shape: 'token-bucket', requests: 60, windowMs: HOUR }, 180, 0, 2 * HOUR],
		[{ shape: 'sliding-log-drf', requests: 60, windowMs: HOUR }, 60, 0, 0],
		[{ shape: 'sliding-log-drf', requests: 60, windowMs: HOUR }, 61, 0, HOUR],
		[{ shape: 'sliding-log-drf', requests: 60, windowMs: HOUR }, 121, 0, 2 * HOUR],
		[{ shape: 'sliding-log-tastypie', requests: 60, windowMs: HOUR }, 61, 0, HOUR + SECOND],
		[{ shape: 'sliding-log-tastypie', requests: 60, windowMs: HOUR }, 61, 400, HOUR + 600],
		[{ shape: 'fixed-window', requests: 60, windowMs: HOUR }, 61, 0, HOUR],
		[{ shape: 'fixed-window', requests: 60, windowMs: HOUR }, 61, HOUR / 2, HOUR / 2],
		[{ shape: 'fixed-window', requests: 60, windowMs: HOUR }, 121, HOUR - 1, HOUR + 1],
		[{ shape: 'leaky-bucket-nginx', requests: 60, windowMs: MINUTE }, 60, 0, 59 * SECOND],
		[{ shape: 'leaky-bucket-nginx', requests: 60, windowMs: MINUTE, burst: 9 }, 60, 0, 59 * SECOND],
		[
			{ shape: 'leaky-bucket-nginx', requests: 60, windowMs: MINUTE, burst: 9, nodelay: true },
			60,
			0,
			50 * SECOND,
		],
	] as Array<[RateLimit, number, number, number]>)(
		'%o: %i requests from %i ms into a window take %i ms',
		(limit, requests, startMs, floorMs) => {
			expect(createLimiter(limit).floorMs(requests, startMs)).toBe(floorMs);
		},
	);

	it.each([
		{ shape: 'token-bucket', requests: 3, windowMs: 1000 },
		{ shape: 'token-bucket', requests: 7, windowMs: 1000 },
		{ shape: 'sliding-log-drf', requests: 3, windowMs: 1000 },
		{ shape: 'sliding-log-tastypie', requests: 3, windowMs: 2000 },
		{ shape: 'fixed-window', requests: 3, windowMs: 1000 },
		{ shape: 'leaky-bucket-nginx', requests: 3, windowMs: 1000 },
		{ shape: 'leaky-bucket-nginx', requests: 7, windowMs: 1000, burst: 2, nodelay: true },
		{ shape: 'leaky-bucket-nginx', requests: 7, windowMs: 1000, burst: 2 },
	] as RateLimit[])('is what a client trying every millisecond takes, for %o', (limit) => {
		for (const startMs of [T0, T0 + 250, T0 + 999])
			for (const requests of [1, 3, 4, 10])
				expect(greedyClientMs(limit, requests, startMs)).toBe(
					Math.ceil(createLimiter(limit).floorMs(requests, startMs)),
				);
	});
});
