import { describe, expect, it } from 'vitest';

import { useSimulator } from '../support/libreBor.mts';
import { ACTION_LANES } from './actionLanes.mts';
import { ORDER_LANES } from './orderLanes.mts';
import { STOP_ON_FAILURE_LANE } from './stopOnFailureLane.mts';
import { TRIGGER_LANES } from './triggerLanes.mts';

// A case spends its time waiting on retries and timeouts, so the lanes run side by side (the
// faults project allows that many tests at once); the cases of a lane share its simulator and
// run one after another.
for (const lane of [...ACTION_LANES, ...ORDER_LANES, STOP_ON_FAILURE_LANE, ...TRIGGER_LANES]) {
	describe(lane.name, { concurrent: true }, () => {
		const sim = useSimulator(lane.simulatorOptions);
		for (const laneCase of lane.cases) {
			it(laneCase.name, { concurrent: false }, async () => {
				expect(await laneCase.run(sim())).toEqual([]);
			});
		}
	});
}
