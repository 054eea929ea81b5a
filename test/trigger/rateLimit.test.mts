// The trigger marking a burst of alerts under LibreBOR's rate limit. The node and the simulator
// share one virtual clock, so that the limit's windows and the pacer's waits fall at exact times
// however busy the machine is (in real time, a loaded machine sent the marks in bunches and was
// refused twice as often as an idle one).
import { describe, expect, it, vi } from 'vitest';

import {
	activatedSession,
	alertIdsOf,
	TRIGGER_KINDS,
	MARK_AS_READ,
	markedIds,
	unreadIds,
	useSimulator,
} from './triggerSession.mts';
import { inVirtualTime, onlyWhenRequestsWait, virtualClock } from '../support/virtualTime.mts';

vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

// A simulator (an account) per test: what one test teaches the pacer of a rate limit must not pace the next.
const sim = useSimulator({ clock: virtualClock, latencyMs: 50 }, { perTest: true });
const inTime = async <T,>(work: Promise<T>) => await inVirtualTime(work, onlyWhenRequestsWait(sim));

describe.each(TRIGGER_KINDS)("LibreBOR Trigger under LibreBOR's rate limit (%s)", (_, kind) => {
	it('marks a burst by waiting out its 429s, losing and repeating nothing', async () => {
		const session = await inTime(activatedSession(sim(), { ...kind, parameters: MARK_AS_READ }));
		const alerts = sim().state.addAlerts(40);
		expect(alertIdsOf(await inTime(session.poll()))).toEqual(alerts.map(({ id }) => id));
		sim().traffic.rateLimitPerSecond = 10;

		for (let poll = 0; poll < 3; poll++) expect(await inTime(session.poll())).toBeNull();
		expect(new Set(markedIds(sim()))).toEqual(new Set(alerts.map(({ id }) => id)));
		expect(unreadIds(sim())).toEqual([]);
		// Polite: the pacer waits out each Retry-After rather than trying again at once, so most
		// requests go through (here 15 of 55 were refused: a 1 s Retry-After lets a second's worth
		// of marks out at once).
		expect(sim().traffic.throttled).toBeLessThan(alerts.length / 2);
	});
});
