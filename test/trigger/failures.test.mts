import { describe, expect, it } from 'vitest';

import { recordWarnings } from '../../tools/engine/index.mts';
import {
	activatedSession,
	alertIdsOf,
	ALERTS_PATH,
	MARK_AS_READ,
	MARK_PATH,
	markedIds,
	TRIGGER_KINDS,
	triggerSession,
	unreadIds,
	useSimulator,
	withLatency,
	type TriggerSessionOptions,
} from './triggerSession.mts';
import { withClock } from '../support/wallClock.mts';

// A simulator (an account) per test: what one test teaches the pacer of a rate limit must not pace the next.
const sim = useSimulator({}, { perTest: true });

/** Enough failures to outlast the request's retries; Retry-After 0 keeps the test fast. */
const failListing = (status: number, times = 4) =>
	sim().injectFault({ method: 'GET', path: ALERTS_PATH, status, times, retryAfter: 0 });

/** A session with Mark as Read on, past its first poll, whose second poll emitted `count` new alerts. */
async function markingSessionThatEmitted(kind: TriggerSessionOptions, count: number) {
	const session = await activatedSession(sim(), { ...kind, parameters: MARK_AS_READ });
	const alerts = sim().state.addAlerts(count);
	expect(alertIdsOf(await session.poll())).toEqual(alerts.map(({ id }) => id));
	return { session, alerts };
}

describe('LibreBOR Trigger, marking within a poll', () => {
	it('starts no mark once half the poll budget is spent, and marks the rest at the next polls', async () => {
		const session = await activatedSession(sim(), {
			cursorStorage: 'scheduler',
			pollBudgetMs: 1_500,
			parameters: MARK_AS_READ,
		});
		const alerts = sim().state.addAlerts(40);
		expect(alertIdsOf(await session.poll())).toHaveLength(40);
		// Marks ramp up from one at once, 200 ms each: 40 take about 1 s, past the 0.75 s for marking.
		expect(await withLatency(sim(), 200, async () => await session.poll())).toBeNull();
		expect(unreadIds(sim()).length).toBeGreaterThan(0);
		for (let poll = 0; poll < 2; poll++) expect(await session.poll()).toBeNull();
		expect(unreadIds(sim())).toEqual([]);
		expect(markedIds(sim()).sort()).toEqual(alerts.map(({ id }) => id).sort());
	});
});

describe.each(TRIGGER_KINDS)('LibreBOR Trigger, failures (%s)', (_, kind) => {
	it('fails the poll when the API keeps answering 500, then catches up without losing an alert', async () => {
		const session = await activatedSession(sim(), { ...kind });

		const before = sim().state.addAlert();
		const fault = failListing(500);
		await expect(session.poll()).rejects.toThrow('LibreBOR had a server error (500)');
		expect(fault.hits).toBe(4);

		const after = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([before.id, after.id]);
		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
	});

	it('fails the poll on a refused password (401) without retrying, then catches up', async () => {
		const session = await activatedSession(sim(), { ...kind });

		const alert = sim().state.addAlert();
		const fault = failListing(401, 1);
		await expect(session.poll()).rejects.toThrow('LibreBOR refused the API user or password (401)');
		expect(fault.hits).toBe(1);

		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
		expect(await session.poll()).toBeNull();
	});

	it('fails the first poll of an activation when the API is down, and takes its baseline once it is back', async () => {
		const existing = sim().state.addAlert();
		const session = triggerSession(sim(), { ...kind });
		// A 503 asks to slow down: the poll waits it out until six pauses in a row bring no progress.
		failListing(503, 6);
		// Versions 2 and 3 say what an activation does; version 1's poll is an execution's.
		await expect(session.poll()).rejects.toThrow(
			kind.version === undefined
				? 'LibreBOR had a server error (503) again and again'
				: 'LibreBOR is unavailable (503): the trigger could not list the alerts it starts from',
		);

		expect(await session.poll()).toBeNull();
		const fresh = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([fresh.id]);
		expect(unreadIds(sim())).toContain(existing.id);
	});

	it('keeps an alert whose mark failed pending without emitting it again, and marks it later', async () => {
		const {
			session,
			alerts: [alert],
		} = await markingSessionThatEmitted(kind, 1);

		sim().injectFault({
			method: 'GET',
			path: `${MARK_PATH}*`,
			status: 502,
			times: 4,
			retryAfter: 0,
		});
		const next = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([next.id]);
		expect(unreadIds(sim())).toContain(alert.id);

		expect(await session.poll()).toBeNull();
		expect(await session.poll()).toBeNull();
		expect(sim().state.unreadAlerts()).toEqual([]);
		expect(new Set(markedIds(sim()))).toEqual(new Set([alert.id, next.id]));
	});

	it('treats a mark whose answer was lost as not done, and a 404 as already done', async () => {
		const {
			session,
			alerts: [first, second],
		} = await markingSessionThatEmitted(kind, 2);

		// The service marks the first alert, but every answer (and retry) is lost.
		sim().injectFault({
			method: 'GET',
			path: `${MARK_PATH}${first.id}/`,
			drop: true,
			afterHandling: true,
			times: 4,
		});
		expect(await session.poll()).toBeNull();
		expect(markedIds(sim())).toEqual([first.id, first.id, first.id, first.id]);

		// The second alert is unknown to the service by now: its 404 counts as done.
		sim().injectFault({ method: 'GET', path: `${MARK_PATH}${second.id}/`, status: 404 });
		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
		expect(markedIds(sim()).slice(4)).toEqual([second.id, first.id]);
		expect(unreadIds(sim())).toEqual([second.id]);
	});

	it('tries a mark again at later polls while LibreBOR answers it without success, says so in the log, and emits the alert once', async () => {
		const {
			session,
			alerts: [alert],
		} = await markingSessionThatEmitted(kind, 1);

		// 2xx answers that do not say success: the service did not mark it.
		for (const body of [JSON.stringify({ result: 'error', message: 'Try again later.' }), 'null'])
			sim().injectFault({ method: 'GET', path: `${MARK_PATH}${alert.id}/`, status: 200, body });
		const warnings = recordWarnings();
		try {
			expect(await session.poll()).toBeNull();
			expect(await session.poll()).toBeNull();
		} finally {
			warnings.stop();
		}
		expect(unreadIds(sim())).toEqual([alert.id]);
		expect(warnings.messages).toEqual([
			expect.stringContaining('it answered with result "error"'),
			expect.stringContaining('it answered with result "none"'),
		]);

		expect(await session.poll()).toBeNull();
		expect(sim().state.unreadAlerts()).toEqual([]);
		expect(await session.poll()).toBeNull();
		expect(markedIds(sim())).toEqual([alert.id, alert.id, alert.id]);
	});

	it('keeps marking the others while LibreBOR refuses to mark an alert it no longer lists, and gives that one up once it is forgotten', async () => {
		await withClock(async (setTime) => {
			const {
				session,
				alerts: [gone, other],
			} = await markingSessionThatEmitted(kind, 2);

			// Read elsewhere (in LibreBOR's panel); how LibreBOR answers a mark of an alert it no longer
			// has is not shown: here, a refusal rather than a 404.
			sim().state.alerts.markRead(gone.id);
			sim().injectFault({
				method: 'GET',
				path: `${MARK_PATH}${gone.id}/`,
				status: 400,
				body: '{"result":"error","message":"Unknown alert."}',
				times: Infinity,
			});
			for (let poll = 0; poll < 6; poll++) {
				setTime(Date.now() + 4 * 60_000);
				expect(await session.poll()).toBeNull();
			}
			expect(sim().state.unreadAlerts()).toEqual([]);
			expect(markedIds(sim()).filter((id) => id === other.id)).toEqual([other.id]);
			const triedGone = markedIds(sim()).filter((id) => id === gone.id).length;
			for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
			expect(markedIds(sim()).filter((id) => id === gone.id)).toHaveLength(triedGone);
		});
	});

	it('repeats the marks when the listing fails after them, and emits nothing twice', async () => {
		const {
			session,
			alerts: [alert],
		} = await markingSessionThatEmitted(kind, 1);

		failListing(500);
		await expect(session.poll()).rejects.toThrow('(500)');
		expect(markedIds(sim())).toEqual([alert.id]);

		const next = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([next.id]);
		expect(await session.poll()).toBeNull();
		expect(await session.poll()).toBeNull();
		expect(sim().state.unreadAlerts()).toEqual([]);
	});
});
