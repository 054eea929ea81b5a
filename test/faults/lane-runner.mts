import { startSimulator } from '../../tools/simulator/index.mts';
import type { Lane, LaneCase, Problem } from './fault-case.mts';

export type Verdicts = Map<LaneCase, Problem[]>;

/** Runs a lane's cases one after another on a simulator of its own, reset before each case. */
async function runLane(lane: Lane, verdicts: Verdicts): Promise<void> {
	const sim = await startSimulator(lane.simulatorOptions);
	try {
		for (const laneCase of lane.cases) {
			sim.reset();
			try {
				verdicts.set(laneCase, await laneCase.run(sim));
			} catch (error) {
				verdicts.set(laneCase, [
					{ check: 'harness', detail: `the case could not run: ${(error as Error).stack}` },
				]);
			}
		}
	} finally {
		await sim.close();
	}
}

/**
 * Runs the lanes side by side. Most of a case's time goes on the node's retry waits and
 * timeouts, so lanes in parallel finish in the time of the longest one.
 */
export async function runLanes(lanes: Lane[]): Promise<Verdicts> {
	const verdicts: Verdicts = new Map();
	await Promise.all(lanes.map(async (lane) => await runLane(lane, verdicts)));
	return verdicts;
}

/** One line for the log: how many cases were tried and how many held. */
export function tally(lanes: Lane[], verdicts: Verdicts): string {
	const cases = lanes.flatMap((lane) => lane.cases);
	const held = cases.filter((laneCase) => verdicts.get(laneCase)?.length === 0).length;
	return `fault-injection: ${cases.length} cases tried, ${held} held`;
}
