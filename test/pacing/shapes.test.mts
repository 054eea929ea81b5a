// The pacer against each shape of rate limit servers use (tools/simulator/rateLimits), at
// per-second windows: every item done, few requests refused, Retry-After never undercut. The
// nodes and the simulator share a virtual clock and every answer takes the same latency on it, so
// how many are refused is the pacer's doing, not the machine's: a busy machine that runs the
// requests of a slow start slowly would let a limit refill in between. How near the floor each
// shape gets in real time, at 50, 250 and 1,000 items, is measured by `npm run bench`.
import { describe, expect, it, vi } from 'vitest';

import type { RateLimit, Simulator } from '../../tools/simulator/index.mts';
import { useSimulator } from '../support/libreBor.mts';
import { runInVirtualTime, virtualClock } from '../support/virtualTime.mts';
import { follow, nifItems } from './followJob.mts';

vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

// A new simulator, so a new account, for every test: each run starts knowing nothing of the limit.
const sim = useSimulator({ clock: virtualClock, latencyMs: 50 }, { perTest: true });

const ITEMS = 100;

interface Refusal {
	at: number;
	status: number;
	retryAfterMs?: number;
}

/** Notes every request the limit refuses, with its status and Retry-After. */
function recordRefusals(simulator: Simulator): Refusal[] {
	const refusals: Refusal[] = [];
	const { traffic } = simulator;
	const admit = traffic.admit.bind(traffic);
	traffic.admit = () => {
		const admission = admit();
		const refusal = admission.refusal;
		if (refusal) {
			const retryAfter = refusal.headers['retry-after'];
			refusals.push({
				at: virtualClock.now(),
				status: refusal.status,
				retryAfterMs: retryAfter === undefined ? undefined : Number(retryAfter) * 1000,
			});
		}
		return admission;
	};
	return refusals;
}

/** Requests that reached the simulator while a Retry-After it sent was still running. */
function undercuts(simulator: Simulator, refusals: Refusal[]) {
	return refusals.flatMap(({ at, retryAfterMs }) =>
		retryAfterMs === undefined
			? []
			: simulator.requests
					.filter((request) => request.time > at)
					.filter((request) => request.time < at + retryAfterMs)
					.map((request) => ({ refusedAt: at, retryAfterMs, sentAt: request.time })),
	);
}

interface Shape {
	name: string;
	limit: RateLimit;
	status: number;
	retryAfter: boolean;
	/** The share of requests refused at most: the round of slow start that met the limit, mostly. */
	mostRefused: number;
	/**
	 * The time the run takes at most, over the limit's floor (the time its count lets the requests
	 * through, counted as they arrive). Kong and tastypie count a request once answered and so let
	 * more through sooner than that floor says.
	 */
	mostOfFloor: number;
}

const SHAPES: Shape[] = [
	{
		name: 'a token bucket',
		limit: { shape: 'token-bucket', requests: 20, windowMs: 1000 },
		status: 429,
		retryAfter: true,
		mostRefused: 0.1,
		mostOfFloor: 1.12,
	},
	{
		name: "Django REST framework's sliding log",
		limit: { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 },
		status: 429,
		retryAfter: true,
		mostRefused: 0.1,
		mostOfFloor: 1.12,
	},
	{
		// Kong counts a request once answered: slow start's round of 16 passes its check beside 12
		// answered, and the next round, of 32, is refused whole.
		name: "Kong's fixed window",
		limit: { shape: 'fixed-window', requests: 20, windowMs: 1000 },
		status: 429,
		retryAfter: true,
		mostRefused: 0.25,
		mostOfFloor: 0.75,
	},
	{
		// 20 in one to two seconds (tastypie counts whole seconds). It counts a request once answered,
		// so a whole round of slow start passes its check and the next round, of 32, is refused whole.
		name: "tastypie's sliding log, without Retry-After",
		limit: { shape: 'sliding-log-tastypie', requests: 20, windowMs: 1000 },
		status: 429,
		retryAfter: false,
		mostRefused: 0.3,
		mostOfFloor: 0.9,
	},
	{
		name: "nginx's leaky bucket, 503 without Retry-After",
		limit: { shape: 'leaky-bucket-nginx', requests: 20, windowMs: 1000 },
		status: 503,
		retryAfter: false,
		mostRefused: 0.06,
		mostOfFloor: 1.06,
	},
];

describe('the pacer under each shape of rate limit', () => {
	it.each(SHAPES)(
		'follows $name: every item done, few refused, Retry-After never undercut',
		{ timeout: 60_000 },
		async ({ limit, status, retryAfter, mostRefused, mostOfFloor }) => {
			// Each run starts as a minute starts, so a fixed window's edges fall alike whatever ran before.
			virtualClock.set(Math.ceil(virtualClock.now() / 60_000) * 60_000);
			sim().traffic.rateLimit = limit;
			const refusals = recordRefusals(sim());
			const floorMs = sim().traffic.floorMs(ITEMS + 1, virtualClock.now());
			const startedAt = virtualClock.now();
			const result = await runInVirtualTime(sim, follow(), { items: nifItems(ITEMS) });
			const ms = virtualClock.now() - startedAt;

			expect(result.error).toBeUndefined();
			expect(result.items.filter((item) => item.error)).toEqual([]);
			expect(sim().state.watchlist).toHaveLength(ITEMS);
			expect(refusals.length).toBeGreaterThan(0);
			expect(refusals.every((refusal) => refusal.status === status)).toBe(true);
			expect(refusals.every((refusal) => (refusal.retryAfterMs !== undefined) === retryAfter)).toBe(
				true,
			);
			expect(undercuts(sim(), refusals)).toEqual([]);
			const share = refusals.length / sim().requests.length;
			expect(share, `${refusals.length} of ${sim().requests.length} refused`).toBeLessThanOrEqual(
				mostRefused,
			);
			// On this clock: token bucket 1.08x, DRF 1.09x, Kong 0.67x, tastypie 0.83x, nginx 1.02x. How
			// near the floor it gets in real time is for the benchmark to measure.
			expect(ms / floorMs, `${ms} ms for a floor of ${floorMs} ms`).toBeLessThanOrEqual(
				mostOfFloor,
			);
		},
	);
});
