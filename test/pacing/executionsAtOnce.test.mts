// Several executions of one account at once, in one process, each under the same LibreBOR limit:
// a team's workflows following companies side by side. LibreBOR limits the account, not the
// execution, so what one execution learns of the limit paces them all, and none gives up because
// the others took the account's turns. On the virtual clock, every answer taking the same latency
// on it (see shapes.test.mts); how near the floor they get together in real time is measured by
// `npm run bench` (scripts/bench/n8n/rateLimitRuns.mts).
import { describe, expect, it, vi } from 'vitest';

import type { RateLimit } from '../../tools/simulator/index.mts';
import { savedWorkflow } from '../actions/orderRuns.mts';
import { runLibreBor, useSimulator, type RunOptions } from '../support/libreBor.mts';
import { inVirtualTime, onlyWhenRequestsWait, virtualClock } from '../support/virtualTime.mts';
import { follow, nifItems } from './followJob.mts';

vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

// A new simulator, so a new account, for every test: the executions start knowing nothing of the limit.
const sim = useSimulator({ clock: virtualClock, latencyMs: 50 }, { perTest: true });

const FOLLOW_REQUEST = { method: 'POST', path: '/v2/alerts/follow/' } as const;
const EXECUTIONS = 4;
const FOLLOWS = 150;

/**
 * `EXECUTIONS` executions, each a workflow of its own following `follows` other companies, all at
 * once or each `startsAfterMs` after the first.
 */
async function executionsAtOnce(
	follows: number,
	options: (execution: number) => RunOptions = () => ({}),
	startsAfterMs: (execution: number) => number = () => 0,
) {
	const runs = Array.from({ length: EXECUTIONS }, async (_, execution) => {
		await virtualClock.sleep(startsAfterMs(execution));
		return await runLibreBor(sim(), follow(), {
			items: nifItems(follows, execution * follows),
			...options(execution),
		});
	});
	return await inVirtualTime(Promise.all(runs), onlyWhenRequestsWait(sim));
}

const refusedShare = () => sim().traffic.throttled / sim().requests.length;

describe.each<[string, RateLimit]>([
	[
		'20 a second, a sliding log with Retry-After (DRF)',
		{ shape: 'sliding-log-drf', requests: 20, windowMs: 1000 },
	],
	[
		'200 a minute, a sliding log with Retry-After (DRF)',
		{ shape: 'sliding-log-drf', requests: 200, windowMs: 60_000 },
	],
])('%s', (_limit, rateLimit) => {
	it(
		`${EXECUTIONS} executions of ${FOLLOWS} follows at once: every one successful, every company followed, few requests refused`,
		{ timeout: 120_000 },
		async () => {
			sim().traffic.rateLimit = rateLimit;
			const results = await executionsAtOnce(FOLLOWS);
			expect(results.map((result) => result.error?.message)).toEqual(
				Array.from({ length: EXECUTIONS }, () => undefined),
			);
			for (const result of results) expect(result.items.filter((item) => item.error)).toEqual([]);
			expect(sim().state.watchlist).toHaveLength(EXECUTIONS * FOLLOWS);
			expect(refusedShare()).toBeLessThanOrEqual(0.1);
		},
	);
});

describe('in two processes (queue-mode workers), two executions each: nothing of the pace is shared between them', () => {
	// Another address of the same simulator is another account for what the node keeps in memory,
	// as a second process is: each pair shares its pace, the two pairs only the server's limit.
	const inAnotherProcess = () => ({ baseUrl: sim().baseUrl.replace('localhost', '127.0.0.1') });

	const drf20PerSecond: RateLimit = { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 };
	const otherProcessEvery2nd = (execution: number) =>
		execution % 2 === 0 ? {} : { credentials: inAnotherProcess() };

	/** Every execution successful, every company followed once; the share refused and the time taken. */
	async function followedByAll(startsAfterMs?: (execution: number) => number) {
		const startedAt = virtualClock.now();
		const results = await executionsAtOnce(FOLLOWS, otherProcessEvery2nd, startsAfterMs);
		const tookMs = virtualClock.now() - startedAt;
		expect(results.map((result) => result.error?.message)).toEqual(
			Array.from({ length: EXECUTIONS }, () => undefined),
		);
		for (const result of results) expect(result.items.filter((item) => item.error)).toEqual([]);
		expect(sim().state.watchlist).toHaveLength(EXECUTIONS * FOLLOWS);
		expect(sim().traffic.admitted).toBe(EXECUTIONS * (FOLLOWS + 1));
		return { tookMs, refused: refusedShare() };
	}

	// The floors: 604 requests at 20 a second, 30 s; at 200 a minute, 3 min. Under a minute's window
	// each process's slow start meets the limit with its own last round in flight, all of it refused:
	// about twice what one process has refused, 19% here (docs/performance.md: issue 51 asks 10%).
	it.each<[string, RateLimit, number, number]>([
		['20 a second', drf20PerSecond, 30_000, 0.1],
		['200 a minute', { shape: 'sliding-log-drf', requests: 200, windowMs: 60_000 }, 180_000, 0.25],
	])(
		`${EXECUTIONS} executions of ${FOLLOWS} follows under %s (DRF): every one successful, every company followed once, few requests refused, together near the floor`,
		{ timeout: 120_000 },
		async (_limit, rateLimit, floorMs, refusedAtMost) => {
			sim().traffic.rateLimit = rateLimit;
			const { tookMs, refused } = await followedByAll();
			expect(refused).toBeLessThanOrEqual(refusedAtMost);
			expect(tookMs).toBeLessThanOrEqual(1.3 * floorMs);
		},
	);

	// A worker that takes its executions later finds the window spent by the other's: LibreBOR
	// refuses it, each time asking for a second, until the other leaves it room. It waits, and then
	// takes up the window the other left. Joining a window at its edge, as at 1 s here, the late
	// process's slow start and the other's next burst meet, and a burst is refused whole: more than
	// the 10% the simultaneous start keeps to (docs/performance.md).
	it.each<[number, number]>([
		[1000, 0.15],
		[3000, 0.1],
	])(
		`${EXECUTIONS} executions under 20 a second (DRF), the other process's two starting %i ms later: none gives up, together near the floor`,
		{ timeout: 120_000 },
		async (lateMs, refusedAtMost) => {
			sim().traffic.rateLimit = drf20PerSecond;
			const { tookMs, refused } = await followedByAll((execution) =>
				execution % 2 === 0 ? 0 : lateMs,
			);
			expect(refused).toBeLessThanOrEqual(refusedAtMost);
			expect(tookMs).toBeLessThanOrEqual(1.3 * 30_000);
		},
	);
});

describe('an order beside another execution of the same account, in one process', () => {
	// Kong counts a request once answered: a burst of follows gets more through than its count
	// allows, and an order sent after it, into what the learned window counts as room, was refused.
	// Tastypie counts whole seconds: the window the follows held at their phases was short by up to
	// a second at the order's (`phaseMs`: the follows start that far into a second; phases that
	// failed, which a later pacing change may move off that path: limitModel.test.mts pins the rule).
	it.each<{ limiter: string; limit: RateLimit; phaseMs?: number }>([
		{
			limiter: 'DRF, 20 a second',
			limit: { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 },
		},
		{
			limiter: 'Kong, 20 a second',
			limit: { shape: 'fixed-window', requests: 20, windowMs: 1000 },
		},
		{ limiter: 'Kong, 9 a second', limit: { shape: 'fixed-window', requests: 9, windowMs: 1000 } },
		...[
			{ requests: 20, phaseMs: 500 },
			{ requests: 12, phaseMs: 700 },
			{ requests: 9, phaseMs: 800 },
		].map(({ requests, phaseMs }) => ({
			limiter: `tastypie, ${requests} a second, from ${phaseMs} ms into a second`,
			limit: { shape: 'sliding-log-tastypie', requests, windowMs: 1000 } as const,
			phaseMs,
		})),
	])(
		'under $limiter: waits for a window the follows have left, which wait for it, and is placed',
		{ timeout: 120_000 },
		async ({ limit, phaseMs }) => {
			if (phaseMs !== undefined) virtualClock.advance(1000 - (virtualClock.now() % 1000) + phaseMs);
			sim().traffic.rateLimit = limit;
			const orders = nifItems(5, 1_000);
			sim().state.balance = orders.length * sim().state.orderPrice;
			const following = runLibreBor(sim(), follow(), { items: nifItems(FOLLOWS) });
			const ordering = (async () => {
				await virtualClock.sleep(2_000);
				return await runLibreBor(
					sim(),
					{ resource: 'document', operation: 'order', nif: '={{ $json.nif }}', year: 2023 },
					{ items: orders },
				);
			})();
			const [followed, ordered] = await inVirtualTime(
				Promise.all([following, ordering]),
				onlyWhenRequestsWait(sim),
			);
			expect(followed.error).toBeUndefined();
			expect(ordered.error?.message).toBeUndefined();
			expect(sim().state.ordersReceived).toBe(orders.length);
		},
	);

	it('sends nothing and keeps no record when its execution is cancelled while the order waits: the next run orders it', async () => {
		sim().injectFault({ ...FOLLOW_REQUEST, status: 429, retryAfter: 60, times: 3 });
		const workflow = savedWorkflow();
		const order = { resource: 'document', operation: 'order', nif: 'B64717838', year: 2023 };
		let cancel = () => {};
		const cancelled = new Promise<void>((resolve) => (cancel = resolve));
		const requestsWait = onlyWhenRequestsWait(sim);
		const [, stopped] = await inVirtualTime(
			Promise.all([
				runLibreBor(sim(), follow(), { items: nifItems(3) }),
				runLibreBor(sim(), order, { workflow, cancelWhen: cancelled }),
			]),
			(wakeAt) => {
				// The account's pause is the next thing to end: the order waits in it.
				if (wakeAt - virtualClock.now() > 30_000 && sim().state.ordersReceived === 0) cancel();
				return requestsWait(wakeAt);
			},
		);
		expect(stopped.error?.message).toMatch(/cancelled/);
		expect(sim().requestsTo('POST', '/v2/documents/order/')).toEqual([]);

		const again = await inVirtualTime(runLibreBor(sim(), order, { workflow }), requestsWait);
		expect(again.error?.message).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(1);
	});
});
