import { it } from 'vitest';

import { BenchSimulator } from '../simulatorControl.mts';
import { timeMs } from '../stats.mts';
import { activeTrigger, quickRun, reportResult } from './builtPackage.mts';

export interface MarkingResult {
	pending: number;
	roundTripMs: number;
	/** The poll that marks them: its time, and how many it marked. */
	markingPollMs: number;
	markedInThatPoll: number;
	/** One mark after another, as the trigger marked before, capped by its 30 s marking time. */
	oneByOneMs: number;
}

const PENDING = quickRun ? 200 : 1000;
const ROUND_TRIP_MS = 60;

it('LibreBOR Trigger marking a burst of emitted alerts as read', async () => {
	const sim = await BenchSimulator.start();
	try {
		const session = activeTrigger(sim, { options: { markAsRead: true } });
		await session.poll();
		await sim.addAlerts(PENDING);
		await session.poll();
		await sim.configure({ latencyMs: ROUND_TRIP_MS });
		const before = await sim.unreadCount();
		const markingPollMs = await timeMs(async () => {
			await session.poll();
		});
		const result: MarkingResult = {
			pending: PENDING,
			roundTripMs: ROUND_TRIP_MS,
			markingPollMs,
			markedInThatPoll: before - (await sim.unreadCount()),
			oneByOneMs: Math.min(PENDING * ROUND_TRIP_MS, 30_000),
		};
		console.log(JSON.stringify(result));
		reportResult(result);
	} finally {
		await sim.close();
	}
});
