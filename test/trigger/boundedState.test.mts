import { describe, expect, it } from 'vitest';

import {
	alertIdsOf,
	liveStateSize,
	storedStateSize,
	useSimulator,
	type PollSession,
	type Simulator,
	activatedSession,
	MARK_AS_READ,
} from './triggerSession.mts';

const sim = useSimulator();

const TOTAL_ALERTS = 3_000;
/** The most alerts the trigger remembers at once (docs/trigger.md). */
const MAX_REMEMBERED_ALERTS = 1_000;
/** Generous room per remembered alert: its id and timestamp, and its id again while pending. */
const CHARACTERS_PER_ALERT = 150;

/** Sends the alerts through in bursts, one poll after each and a few at the end. */
async function runBursts(simulator: Simulator, session: PollSession, burst: number) {
	const emitted = new Set<string>();
	let emittedCount = 0;
	let largestState = 0;
	const pollOnce = async () => {
		const ids = alertIdsOf(await session.poll());
		ids.forEach((id) => emitted.add(id));
		emittedCount += ids.length;
		largestState = Math.max(largestState, storedStateSize(session), liveStateSize(session));
	};
	for (let sent = 0; sent < TOTAL_ALERTS; sent += burst) {
		simulator.state.addAlerts(burst);
		await pollOnce();
	}
	for (let poll = 0; poll < 3; poll++) await pollOnce();
	return { emitted, emittedCount, largestState };
}

describe.each([1, 2] as const)('LibreBOR Trigger version %s, state size', (version) => {
	it(
		`stays proportional to the unread list after ${TOTAL_ALERTS} alerts have gone through`,
		{ timeout: 600_000 },
		async () => {
			const burst = 100;
			const session = await activatedSession(sim(), { version, parameters: MARK_AS_READ });

			const { emitted, emittedCount, largestState } = await runBursts(sim(), session, burst);

			console.log(
				`LibreBOR Trigger state, ${emittedCount} alerts in bursts of ${burst} with Mark as Read: largest ${largestState} characters, at the end ${liveStateSize(session)} characters`,
			);
			expect(emittedCount).toBe(TOTAL_ALERTS);
			expect(emitted.size).toBe(TOTAL_ALERTS);
			expect(sim().state.unreadAlerts()).toEqual([]);
			expect(largestState).toBeLessThan(burst * CHARACTERS_PER_ALERT);
		},
	);

	it(
		'stays under its hard limit when unread alerts pile up beyond a capped list',
		{ timeout: 600_000 },
		async () => {
			const listCap = 50;
			sim().state.alertListCap = listCap;
			const session = await activatedSession(sim(), { version });

			const { emitted, emittedCount, largestState } = await runBursts(sim(), session, listCap);

			console.log(
				`LibreBOR Trigger state, ${emittedCount} alerts left unread behind a list of ${listCap}: largest ${largestState} characters`,
			);
			expect(emittedCount).toBe(TOTAL_ALERTS);
			expect(emitted.size).toBe(TOTAL_ALERTS);
			expect(largestState).toBeLessThan(MAX_REMEMBERED_ALERTS * CHARACTERS_PER_ALERT);
		},
	);
});
