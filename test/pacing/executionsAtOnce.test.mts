// Several executions of one account at once, in one process, each under the same LibreBOR limit:
// a team's workflows following companies side by side. LibreBOR limits the account, not the
// execution, so what one execution learns of the limit paces them all, and none gives up because
// the others took the account's turns. On the virtual clock, every answer taking the same latency
// on it (see shapes.test.mts); how near the floor they get together in real time is measured by
// `npm run bench` (scripts/bench/n8n/rateLimitRuns.mts).
import { describe, expect, it, vi } from 'vitest';

import type { RateLimit } from '../../tools/simulator/index.mts';
import { runLibreBor, useSimulator, type RunOptions } from '../support/libreBor.mts';
import { inVirtualTime, onlyWhenRequestsWait, virtualClock } from '../support/virtualTime.mts';
import { follow, nifItems } from './followJob.mts';

vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

// A new simulator, so a new account, for every test: the executions start knowing nothing of the limit.
const sim = useSimulator({ clock: virtualClock, latencyMs: 50 }, { perTest: true });

const EXECUTIONS = 4;
const FOLLOWS = 150;

/** `EXECUTIONS` executions at once, each a workflow of its own following `follows` other companies. */
async function executionsAtOnce(follows: number, options: RunOptions = {}) {
	const runs = Array.from({ length: EXECUTIONS }, (_, execution) =>
		runLibreBor(sim(), follow(), { items: nifItems(follows, execution * follows), ...options }),
	);
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
