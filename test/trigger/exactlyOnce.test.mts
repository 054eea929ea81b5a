import { describe, expect, it } from 'vitest';

import {
	activatedSession,
	alertIdsOf,
	ALERTS_PATH,
	MARK_ALL_PATH,
	MARK_AS_READ,
	markedIds,
	mayRepeatAfterRestart,
	TRIGGER_KINDS,
	triggerSession,
	unreadIds,
	useSimulator,
	withLatency,
} from './triggerSession.mts';

const sim = useSimulator();

describe.each(TRIGGER_KINDS)('LibreBOR Trigger, exactly once (%s)', (_, kind) => {
	it('emits a new alert on the next poll and never again over 20 further polls', async () => {
		const session = await activatedSession(sim(), { ...kind });

		const alert = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
		for (let poll = 0; poll < 20; poll++) expect(await session.poll()).toBeNull();
		// Every poll read the list, which still shows the alert: only the trigger's memory kept it out.
		expect(sim().requestsTo('GET', ALERTS_PATH)).toHaveLength(22);
	});

	it('marks an emitted alert as read at the next poll, once, and never emits it again', async () => {
		const session = await activatedSession(sim(), { ...kind, parameters: MARK_AS_READ });

		const alert = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
		expect(markedIds(sim())).toEqual([]);
		for (let poll = 0; poll < 20; poll++) expect(await session.poll()).toBeNull();
		expect(markedIds(sim())).toEqual([alert.id]);
		expect(sim().state.unreadAlerts()).toEqual([]);
	});

	it('marks the alerts of a poll side by side, never more than 50 at once', async () => {
		const session = await activatedSession(sim(), { ...kind, parameters: MARK_AS_READ });
		sim().state.addAlerts(150);
		expect(alertIdsOf(await session.poll())).toHaveLength(150);
		// Held long enough that a loaded machine sends a whole round of marks while the round
		// before is still held: at 50 ms a busy run saw no more than 13 at once.
		sim().traffic.resetCounters();
		expect(await withLatency(sim(), 300, async () => await session.poll())).toBeNull();
		expect(sim().state.unreadAlerts()).toEqual([]);
		expect(sim().traffic.maxInFlight).toBeGreaterThan(16);
		expect(sim().traffic.maxInFlight).toBeLessThanOrEqual(50);
	});

	it('emits an alert that arrives between the listing and the marks at the following poll, never marking all', async () => {
		const session = await activatedSession(sim(), { ...kind, parameters: MARK_AS_READ });

		const first = sim().state.addAlert();
		let late: { id: string } | undefined;
		sim().onRequest({ method: 'GET', path: ALERTS_PATH }, () => {
			late = sim().state.addAlert();
		});
		expect(alertIdsOf(await session.poll())).toEqual([first.id]);
		expect(late).toBeDefined();

		expect(alertIdsOf(await session.poll())).toEqual([late!.id]);
		expect(await session.poll()).toBeNull();
		expect(await session.poll()).toBeNull();

		expect(markedIds(sim())).toEqual([first.id, late!.id]);
		expect(sim().requestsTo('GET', MARK_ALL_PATH)).toEqual([]);
		expect(sim().state.unreadAlerts()).toEqual([]);
	});

	const againAfterRestart = (ids: string[]) => (mayRepeatAfterRestart(kind) ? ids : []);

	it("emits nothing twice across restarts, but the last emission before one in version 1's default mode", async () => {
		const session = await activatedSession(sim(), { ...kind });
		const first = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([first.id]);

		session.restart();
		expect(alertIdsOf(await session.poll())).toEqual(againAfterRestart([first.id]));
		const second = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([second.id]);

		session.restart();
		expect(alertIdsOf(await session.poll())).toEqual(againAfterRestart([second.id]));
		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
	});

	// Versions 2 and 3 restart as n8n restarts them, the same workflow: see the test above.
	it.runIf(kind.version === undefined)(
		'emits nothing twice when a new node instance starts from the stored static data, but what was never marked in the default mode',
		async () => {
			const options = { ...kind, parameters: MARK_AS_READ };
			const session = await activatedSession(sim(), options);
			const alerts = sim().state.addAlerts(3);
			const ids = alerts.map(({ id }) => id);
			expect(alertIdsOf(await session.poll())).toEqual(ids);

			const restarted = triggerSession(sim(), { ...options, staticData: session.savedStaticData });
			expect(alertIdsOf(await restarted.poll())).toEqual(againAfterRestart(ids));
			for (let poll = 0; poll < 3; poll++) expect(await restarted.poll()).toBeNull();
			// With durable cursors n8n does not store what the first poll of an activation did when
			// it emitted nothing, so the next poll marks the same alerts again: harmless, as marking
			// is idempotent.
			expect(new Set(markedIds(sim()))).toEqual(new Set(ids));
			expect(sim().requestsTo('GET', MARK_ALL_PATH)).toEqual([]);
			expect(sim().state.unreadAlerts()).toEqual([]);
		},
	);

	it('skips a tick that starts while the previous poll is still running', async () => {
		const session = await activatedSession(sim(), { ...kind });
		const alert = sim().state.addAlert();
		const [slow, overlapping] = await withLatency(
			sim(),
			300,
			async () => await Promise.all([session.poll(), session.poll()]),
		);
		expect(alertIdsOf(slow)).toEqual([alert.id]);
		expect(overlapping).toBeNull();
		expect(await session.poll()).toBeNull();
		// The skipped tick started no execution: the workflow's list holds the alert's one only.
		expect(session.executions.map(alertIdsOf)).toEqual([[alert.id]]);
	});

	it('emits oldest first', async () => {
		const session = await activatedSession(sim(), { ...kind });
		const now = Date.now();
		const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();
		const middle = sim().state.addAlert({ created_at: at(2000) });
		const oldest = sim().state.addAlert({ created_at: at(1000) });
		const newest = sim().state.addAlert({ created_at: at(3000) });
		expect(alertIdsOf(await session.poll())).toEqual([oldest.id, middle.id, newest.id]);
	});
});

describe.each(TRIGGER_KINDS)('LibreBOR Trigger, first poll (%s)', (_, kind) => {
	it('records the alerts already unread at activation and emits none of them', async () => {
		const existing = sim().state.addAlerts(3);
		const session = await activatedSession(sim(), { ...kind });
		for (let poll = 0; poll < 5; poll++) expect(await session.poll()).toBeNull();

		const fresh = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([fresh.id]);
		expect(existing.every(({ id }) => unreadIds(sim()).includes(id))).toBe(true);
	});

	it('emits once an older alert that surfaces later from beyond a capped listing at activation', async () => {
		sim().state.alertListCap = 2;
		const existing = sim().state.addAlerts(4);
		const session = await activatedSession(sim(), { ...kind });

		// The user reads the two listed alerts elsewhere: the two older ones come into the list.
		// Nothing told the trigger they existed, so it takes them as new rather than risk losing one.
		for (const { id } of existing.slice(2)) sim().state.alerts.markRead(id);
		expect(alertIdsOf(await session.poll())).toEqual(existing.slice(0, 2).map(({ id }) => id));
		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
	});

	it('emits the alerts already unread at activation with Include Existing Alerts, oldest first, once', async () => {
		const existing = sim().state.addAlerts(3);
		const session = triggerSession(sim(), {
			...kind,
			parameters: { options: { includeExisting: true } },
		});
		expect(alertIdsOf(await session.poll())).toEqual(existing.map(({ id }) => id));
		for (let poll = 0; poll < 5; poll++) expect(await session.poll()).toBeNull();
	});

	it('emits nothing at activation when there are no unread alerts, then emits what arrives', async () => {
		const session = await activatedSession(sim(), { ...kind });
		const alert = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
	});

	it('takes a new baseline, emitting nothing again, when the workflow is imported over itself without its state', async () => {
		const session = await activatedSession(sim(), { ...kind });
		const alert = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);

		session.replaceSavedStaticData({});
		session.republish({});
		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
	});
});
