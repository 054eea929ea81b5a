// What a run learns of the account's limit, kept for the next runs with the same credential: in
// the process, and in the workflow's static data for another process; stale after a day. On the
// virtual clock, every answer taking the same latency on it (see shapes.test.mts).
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { DEFAULT_PARALLEL_REQUESTS } from '../../nodes/LibreBor/helpers/pacer.ts';
import { copyOf, onAnotherWorker, savedWorkflow } from '../actions/orderRuns.mts';
import { useSimulator, type RunOptions } from '../support/libreBor.mts';
import { runInVirtualTime, virtualClock } from '../support/virtualTime.mts';
import { follow, nifItems } from './followJob.mts';

vi.mock(
	'../../nodes/LibreBor/helpers/clock.ts',
	async () => (await import('../support/virtualTime.mts')).nodeClock,
);

/** How long a learned limit is kept, as docs/performance.md says: 24 hours. */
const LEARNED_LIMIT_TTL_MS = 24 * 3_600_000;

// A new simulator, so a new account, for every test: the first run of each knows nothing yet.
const sim = useSimulator({ clock: virtualClock, latencyMs: 50 }, { perTest: true });

/** A job of Parallel Requests items, and one large enough for slow start to reach them (4, 8, 16, 32, then 50). */
const JOB = DEFAULT_PARALLEL_REQUESTS;
const TEACHING_JOB = 3 * DEFAULT_PARALLEL_REQUESTS;

/** Follows `count` new companies, every one of them; how long it took, the 429s, the most in flight. */
async function followRun(count: number, from: number, options: RunOptions = {}) {
	sim().traffic.resetCounters();
	const startedAt = virtualClock.now();
	const result = await runInVirtualTime(sim, follow(), {
		items: nifItems(count, from),
		...options,
	});
	expect(result.error).toBeUndefined();
	expect(result.items.filter((item) => item.error)).toEqual([]);
	return {
		ms: virtualClock.now() - startedAt,
		throttled: sim().traffic.throttled,
		maxInFlight: sim().traffic.maxInFlight,
	};
}

describe('what a run learned of the limit, for the next runs with the same account', () => {
	it(
		'starts a second run under a limit at the pace the first one found: hardly a 429, near the floor',
		{ timeout: 60_000 },
		async () => {
			sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 };
			const first = await followRun(60, 0);
			expect(first.throttled).toBeGreaterThan(2);

			// Another second, so that the first run's requests have left the limit's log.
			virtualClock.advance(1_000);
			const floorMs = sim().traffic.floorMs(61);
			const second = await followRun(60, 60);
			expect(second.throttled).toBeLessThanOrEqual(2);
			expect(second.ms, `${second.ms} ms, floor ${floorMs} ms`).toBeLessThan(floorMs * 1.5);
		},
	);

	it('starts a second run at Parallel Requests when the first had that many in flight and drew no throttle', async () => {
		// Slow answers keep a round's requests in flight together, so the simulator sees what the pacer allows.
		sim().state.latencyMs = 400;
		// Knowing nothing, a run doubles from 4 a round: 4, 8, 16, then the 22 left.
		expect((await followRun(JOB, 0)).maxInFlight).toBeLessThan(JOB);
		await followRun(TEACHING_JOB, JOB);
		expect((await followRun(JOB, JOB + TEACHING_JOB)).maxInFlight).toBe(JOB);
	});

	it('hands what it learned to another n8n process through the workflow static data, and not through a retry', async () => {
		sim().state.latencyMs = 400;
		const workflow = savedWorkflow();
		await followRun(TEACHING_JOB, 0, { workflow });
		const stored = copyOf(workflow.staticData);
		expect(JSON.stringify(stored)).not.toContain(sim().credentials.username);

		const elsewhere = await followRun(JOB, TEACHING_JOB, {
			workflow: { id: workflow.id, staticData: stored },
			nodeType: await onAnotherWorker(),
		});
		expect(elsewhere.maxInFlight).toBe(JOB);

		// n8n starts a retry without the workflow's static data, and would save over it: left alone.
		const retried: IDataObject = {};
		await followRun(JOB, TEACHING_JOB + JOB, {
			workflow: { id: workflow.id, staticData: retried },
			nodeType: await onAnotherWorker(),
			mode: 'retry',
		});
		expect(retried).toEqual({});
	});

	it('forgets what it learned a day after it was last confirmed, in this process and in the workflow', async () => {
		sim().state.latencyMs = 400;
		const workflow = savedWorkflow();
		const start = virtualClock.now();
		await followRun(TEACHING_JOB, 0, { workflow });

		virtualClock.set(start + LEARNED_LIMIT_TTL_MS - 60_000);
		const stillKnown = await followRun(JOB, TEACHING_JOB, { workflow });
		expect(stillKnown.maxInFlight).toBe(JOB);

		// A day after the run that confirmed it: stale, here and in the static data.
		virtualClock.set(start + 2 * LEARNED_LIMIT_TTL_MS);
		const stale = await followRun(JOB, TEACHING_JOB + JOB, { workflow });
		expect(stale.maxInFlight).toBeLessThan(JOB);
	});

	it('learns again when the limit fell since, without failing an item, and the next run keeps to the new one', async () => {
		sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 };
		await followRun(60, 0);
		sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 5, windowMs: 1000 };
		const fell = await followRun(25, 60);
		expect(fell.throttled).toBeGreaterThan(0);

		virtualClock.advance(1_000);
		// Knowing nothing, slow start would send 12 into a window of 5.
		const next = await followRun(25, 85);
		expect(next.throttled).toBeLessThanOrEqual(2);
	});
});
