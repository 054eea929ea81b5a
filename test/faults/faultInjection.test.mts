import { describe, expect, it } from 'vitest';

import { entriesOf, operationsNotIn } from '../../tools/nodeOperations.mts';
import { useSimulator } from '../support/libreBor.mts';
import { ACTION_LANES } from './actionLanes.mts';
import { STOP_ON_FAILURE_LANES } from './stopOnFailureLane.mts';
import { TRIGGER_LANES } from './triggerLanes.mts';

const actionLanes = entriesOf(ACTION_LANES);

describe('the fault lanes', () => {
	it('have cases for every operation of the LibreBOR node', () => {
		const withCases = actionLanes.filter(({ value }) => value.some((lane) => lane.cases.length));
		expect(operationsNotIn(withCases)).toEqual([]);
	});
});

// A case spends its time waiting on retries and timeouts, so the lanes run side by side (the
// faults project allows that many tests at once); the cases of a lane share its simulator and
// run one after another.
const lanes = [
	...actionLanes.flatMap(({ value }) => value),
	...STOP_ON_FAILURE_LANES,
	...TRIGGER_LANES,
];
for (const lane of lanes) {
	describe(lane.name, { concurrent: true }, () => {
		const sim = useSimulator(lane.simulatorOptions);
		for (const laneCase of lane.cases) {
			it(laneCase.name, { concurrent: false }, async () => {
				expect(await laneCase.run(sim())).toEqual([]);
			});
		}
	});
}
