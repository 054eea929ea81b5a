// The action node under an hourly quota smaller than the job: the simulator counts the quota on a
// clock of its own (ManualClock), so that an hour passes when the test says; the node's time is real.
import { describe, expect, it } from 'vitest';

import { ManualClock } from '../../tools/simulator/index.mts';
import { pairedItemsOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { follow, nifItems } from './followJob.mts';

const HOUR_MS = 3_600_000;
const clock = new ManualClock();
// A new simulator, so a new account, for every test: no earlier run taught the node its limit.
const sim = useSimulator({ clock }, { perTest: true });

const RESUME = /run the node again on the items that were not done/;
/** A run of follows reads the watch list once before its first follow: one request of the quota. */
const QUOTA_FOR = (follows: number) => follows + 1;

describe('the action node under an hourly quota smaller than the job', () => {
	it('stops at once when Retry-After asks for the rest of the hour (DRF), saying how many items were done and what to do', async () => {
		sim().traffic.rateLimit = {
			shape: 'sliding-log-drf',
			requests: QUOTA_FOR(4),
			windowMs: HOUR_MS,
		};
		const startedAt = Date.now();
		const result = await runLibreBor(sim(), follow(), { items: nifItems(8) });
		const error = result.error as Error & { description?: string };
		expect(error?.message).toContain('4 of 8 items were done by then');
		expect(error?.description).toMatch(RESUME);
		// The wait asked for is past the 5 min budget: not waited, and nothing sent after the refusals.
		expect(Date.now() - startedAt).toBeLessThan(10_000);
		expect(sim().state.watchlist).toHaveLength(4);
	});

	it('with Continue On Fail, gives one item per input, the ones not done as errors, and a run an hour later does the rest', async () => {
		sim().traffic.rateLimit = {
			shape: 'sliding-log-drf',
			requests: QUOTA_FOR(4),
			windowMs: HOUR_MS,
		};
		const items = nifItems(8);
		const result = await runLibreBor(sim(), follow(), { items, continueOnFail: true });
		expect(result.items).toHaveLength(8);
		expect(pairedItemsOf(result)).toEqual(items.map((_, item) => ({ item })));
		const failed = result.items.flatMap((item, index) => (item.error ? [index] : []));
		expect(failed).toHaveLength(4);
		for (const index of failed)
			expect(result.items[index].error?.message).toMatch(/4 of 8 items were done/);

		clock.advance(HOUR_MS);
		const rest = await runLibreBor(sim(), follow(), { items: failed.map((index) => items[index]) });
		expect(rest.error).toBeUndefined();
		expect(sim().state.watchlist).toHaveLength(8);
	});

	it('stops within its Time Budget when the quota says nothing of when to come back (tastypie), saying how many items were done', async () => {
		sim().traffic.rateLimit = {
			shape: 'sliding-log-tastypie',
			requests: QUOTA_FOR(3),
			windowMs: HOUR_MS,
		};
		const budgetMs = 3_000;
		const items = nifItems(6);
		const startedAt = Date.now();
		const result = await runLibreBor(sim(), follow({ budgetMinutes: budgetMs / 60_000 }), {
			items,
			continueOnFail: true,
		});
		expect(Date.now() - startedAt).toBeLessThan(budgetMs + 5_000);
		expect(pairedItemsOf(result)).toEqual(items.map((_, item) => ({ item })));
		const errors = result.items.flatMap((item) => (item.error ? [item.error] : []));
		expect(errors).toHaveLength(3);
		for (const error of errors) {
			expect(error.message).toMatch(/time budget of 0\.05 min is spent; 3 of 6 items were done/);
			expect((error as Error & { description?: string }).description).toMatch(RESUME);
		}
		expect(sim().state.watchlist).toHaveLength(3);
	});

	it('stops every execution of the account at once when the quota is spent, each saying how many of its items were done', async () => {
		const executions = 4;
		// The watch list read of each execution, and 8 follows of the 16 asked for.
		sim().traffic.rateLimit = {
			shape: 'sliding-log-drf',
			requests: executions + 8,
			windowMs: HOUR_MS,
		};
		const results = await Promise.all(
			Array.from({ length: executions }, (_, execution) =>
				runLibreBor(sim(), follow(), { items: nifItems(4, execution * 4) }),
			),
		);
		const done = results.map((result) => {
			if (!result.error) return 4;
			expect(result.error.message).toMatch(
				/time budget of 5 min is spent; \d of 4 items were done/,
			);
			return Number(/(\d) of 4 items were done/.exec(result.error.message)?.[1]);
		});
		expect(done.reduce((sum, count) => sum + count, 0)).toBe(8);
		expect(sim().state.watchlist).toHaveLength(8);
	});
});
