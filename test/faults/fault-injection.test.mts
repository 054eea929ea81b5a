import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ACTION_LANES } from './action-lanes.mts';
import type { Problem } from './fault-case.mts';
import { runLanes, tally, type Verdicts } from './lane-runner.mts';
import { ORDER_LANES } from './order-lanes.mts';
import { STOP_ON_FAILURE_LANE } from './stop-on-failure-lane.mts';
import { TRIGGER_LANES } from './trigger-lanes.mts';

const LANES = [...ACTION_LANES, ...ORDER_LANES, STOP_ON_FAILURE_LANE, ...TRIGGER_LANES];

// The cases spend their time waiting on retries and timeouts, so they all run up front, lanes
// side by side; each test below then gives the verdict of its case.
let verdicts: Verdicts = new Map();
beforeAll(async () => {
	verdicts = await runLanes(LANES);
}, 300_000);
afterAll(() => console.log(tally(LANES, verdicts)));

for (const lane of LANES) {
	describe(lane.name, () => {
		for (const laneCase of lane.cases) {
			it(laneCase.name, () => {
				const problems: Problem[] = verdicts.get(laneCase) ?? [
					{ check: 'harness', detail: 'the case did not run' },
				];
				expect(problems).toEqual([]);
			});
		}
	});
}
