// Several executions of one account at once, in one process, under each shape of rate limit: a
// team's workflows that follow companies side by side with the same LibreBOR credential. Each is a
// workflow of its own run through n8n-core's engine with the built package, all at once, against
// the simulator in a process of its own through the delay proxy; the floor is the least time the
// limit needs to admit all of their requests (each execution's read of the watch list and its
// follows) from the first one.
import { it } from 'vitest';

import { runAction } from '../../../tools/engine/index.mts';
import { AT_ONCE_CASES, EXECUTIONS, FOLLOWS_EACH } from '../executionsAtOnceCases.mts';
import type { BenchShape } from '../n8n/rateLimitRuns.mts';
import { companyNifs } from '../nifs.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { builtNodes, quickRun, reportResult } from './builtPackage.mts';
import { underLimit } from './limitedCase.mts';

export interface ExecutionsAtOnceRun {
	shape: string;
	executions: number;
	itemsEach: number;
	/** From the start of the first execution to the end of the last. */
	ms: number;
	floorMs: number;
	failedExecutions: number;
	failedItems: number;
	followed: number;
	requests: number;
	throttled: number;
}

/** One case, under a limit of its own, a new account (see limitedCase.mts). */
async function measureCase(sim: BenchSimulator, shape: BenchShape): Promise<ExecutionsAtOnceRun> {
	const { LibreBor } = builtNodes();
	await sim.reset();
	const watched = async () =>
		((await sim.process.control('GET', 'state')) as { watchlistSize: number }).watchlistSize;
	const before = await watched();
	const nifs = companyNifs(EXECUTIONS * FOLLOWS_EACH);
	// Each execution reads the watch list once, then follows.
	const requests = EXECUTIONS * (FOLLOWS_EACH + 1);
	const measured = await underLimit(sim, shape.limit, requests, async (baseUrl) =>
		Promise.all(
			Array.from({ length: EXECUTIONS }, async (_, execution) => {
				const items = nifs.slice(execution * FOLLOWS_EACH, (execution + 1) * FOLLOWS_EACH);
				return await runAction({
					nodeType: new LibreBor(),
					parameters: {
						resource: 'watchlist',
						operation: 'follow',
						company: { __rl: true, mode: 'nif', value: '={{ $json.nif }}' },
					},
					credentials: { libreBorApi: { ...sim.libreBorCredential, baseUrl } },
					items: items.map((nif) => ({ nif })),
					continueOnFail: true,
				});
			}),
		),
	);
	const results = measured.outcome;
	const failed = results.map((result) => result.items.filter((item) => item.error).length);
	const run: ExecutionsAtOnceRun = {
		shape: shape.name,
		executions: EXECUTIONS,
		itemsEach: FOLLOWS_EACH,
		ms: measured.ms,
		floorMs: measured.floorMs,
		failedExecutions: results.filter((result, index) => result.error || failed[index] > 0).length,
		failedItems: failed.reduce((sum, count) => sum + count, 0),
		followed: (await watched()) - before,
		requests: measured.requests,
		throttled: measured.throttled,
	};
	console.log(JSON.stringify(run));
	return run;
}

it(`${EXECUTIONS} executions of one account at once, under each shape of limit`, async () => {
	const sim = await BenchSimulator.start();
	try {
		const runs: ExecutionsAtOnceRun[] = [];
		for (const shape of quickRun ? AT_ONCE_CASES.slice(1, 2) : AT_ONCE_CASES)
			runs.push(await measureCase(sim, shape));
		reportResult(runs);
	} finally {
		await sim.process.control('POST', 'settings', { rateLimit: null });
		await sim.close();
	}
});
