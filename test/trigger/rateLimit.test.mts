// The trigger marking a burst of alerts under LibreBOR's rate limit. The node and the simulator
// share one virtual clock, so that the limit's windows and the pacer's waits fall at exact times
// however busy the machine is (in real time, a loaded machine sent the marks in bunches and was
// refused twice as often as an idle one).
import type { NodeApiError } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { ACTIVATION_POLL_BUDGET_MS } from '../../nodes/LibreBor/trigger/pollRound.ts';

import {
	activatedSession,
	ALERTS_PATH,
	alertIdsOf,
	TRIGGER_KINDS,
	MARK_AS_READ,
	markedIds,
	triggerSession,
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

/** A throttle of a minute on the listing, as DRF's limit of 60 a minute gives when it is spent. */
const throttleListingForAMinute = () =>
	sim().injectFault({ method: 'GET', path: ALERTS_PATH, status: 429, retryAfter: 60 });

const company = (nif: string) => ({ __rl: true, mode: 'list', value: nif });

describe.each(TRIGGER_KINDS.filter(([, kind]) => kind.version !== undefined))(
	'LibreBOR Trigger activated while LibreBOR throttles the account (%s)',
	(_, kind) => {
		it("does not hold up n8n's activation to wait out a minute: the next Poll Time emits what it missed, once", async () => {
			const session = await inTime(activatedSession(sim(), kind));
			const missed = sim().state.addAlert();
			session.restart();
			throttleListingForAMinute();
			const startedAt = virtualClock.now();
			expect(await inTime(session.poll())).toBeNull();
			expect(virtualClock.now() - startedAt).toBeLessThanOrEqual(ACTIVATION_POLL_BUDGET_MS);

			// A Poll Time's poll has the whole time budget: it waits the minute out.
			throttleListingForAMinute();
			const tickedAt = virtualClock.now();
			expect(alertIdsOf(await inTime(session.poll()))).toEqual([missed.id]);
			expect(virtualClock.now() - tickedAt).toBeGreaterThanOrEqual(60_000);
			expect(await inTime(session.poll())).toBeNull();
		});

		it('skips quietly a throttled activation whose Company filter reads the watch list first, and emits what it missed at the next Poll Time', async () => {
			sim().state.follow('B64717838');
			const parameters = { options: { company: company('B64717838') } };
			const session = await inTime(activatedSession(sim(), { ...kind, parameters }));
			const missed = sim().state.addAlert({ nif: 'B64717838' });
			session.restart();
			const everyAlertsRequest = { method: 'GET', path: '/v2/alerts/*' } as const;
			const throttle = sim().injectFault({
				...everyAlertsRequest,
				status: 429,
				retryAfter: 60,
				times: Infinity,
			});
			expect(await inTime(session.poll())).toBeNull();
			expect(sim().requestsTo('GET', '/v2/alerts/following/').length).toBeGreaterThan(0);

			throttle.cancel();
			expect(alertIdsOf(await inTime(session.poll()))).toEqual([missed.id]);
		});

		it('waits out an outage at activation for 20 s at most, then fails a first activation saying so', async () => {
			const session = triggerSession(sim(), kind);
			const outage = sim().injectFault({
				method: 'GET',
				path: ALERTS_PATH,
				status: 503,
				retryAfter: 15,
				times: Infinity,
			});
			const startedAt = virtualClock.now();
			const failure = await inTime(session.poll().catch((error: unknown) => error as NodeApiError));
			expect(virtualClock.now() - startedAt).toBeGreaterThanOrEqual(15_000);
			expect(virtualClock.now() - startedAt).toBeLessThanOrEqual(ACTIVATION_POLL_BUDGET_MS);
			expect(failure).toMatchObject({
				httpCode: '503',
				message:
					'LibreBOR is unavailable (503): the trigger could not list the alerts it starts from',
			});
			outage.cancel();
			expect(await inTime(session.poll())).toBeNull();
		});

		it('fails a first activation it cannot take its baseline in, saying what to do, and takes it when activated again', async () => {
			const existing = sim().state.addAlert();
			const session = triggerSession(sim(), kind);
			throttleListingForAMinute();
			const startedAt = virtualClock.now();
			const failure = await inTime(session.poll().catch((error: unknown) => error as NodeApiError));
			expect(virtualClock.now() - startedAt).toBeLessThanOrEqual(ACTIVATION_POLL_BUDGET_MS);
			expect(failure).toMatchObject({
				httpCode: '429',
				message:
					'LibreBOR is rate limiting the account (429): the trigger could not list the alerts it starts from',
				description: expect.stringMatching(/publish the workflow again later/),
			});

			expect(await inTime(session.poll())).toBeNull();
			const fresh = sim().state.addAlert();
			expect(alertIdsOf(await inTime(session.poll()))).toEqual([fresh.id]);
			expect(unreadIds(sim())).toContain(existing.id);
		});
	},
);
