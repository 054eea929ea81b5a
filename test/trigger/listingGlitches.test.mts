import { describe, expect, it } from 'vitest';

import { recordWarnings } from '../../tools/engine/index.mts';
import { withCategories } from '../support/actCategoryTable.mts';

import {
	ALERTS_PATH,
	alertIdsOf,
	TRIGGER_KINDS,
	jsonOf,
	MARK_PATH,
	markedIds,
	storedStateSize,
	triggerSession,
	useSimulator,
	activatedSession,
	MARK_AS_READ,
} from './triggerSession.mts';

const sim = useSimulator();
/** The most alerts the trigger remembers at once (docs/trigger.md). */
const MAX_REMEMBERED_ALERTS = 1_000;

/** Makes the next listing answer exactly this JSON, whatever is unread. */
const nextListingAnswers = (value: unknown) =>
	sim().injectFault({
		method: 'GET',
		path: ALERTS_PATH,
		status: 200,
		body: JSON.stringify(value),
		contentType: 'application/json',
	});

describe.each(TRIGGER_KINDS)('LibreBOR Trigger, a misbehaving listing (%s)', (_, kind) => {
	it('emits once an alert that one answer lists twice', async () => {
		const session = await activatedSession(sim(), { ...kind });
		const alert = sim().state.addAlert();
		nextListingAnswers([alert, alert]);
		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
		expect(await session.poll()).toBeNull();
	});

	it('emits once an alert with an unreadable created_at, also when more alerts are unread than it remembers', async () => {
		const session = await activatedSession(sim(), { ...kind });
		const undated = sim().state.addAlert({ created_at: 'sometime' });
		sim().state.addAlerts(MAX_REMEMBERED_ALERTS + 1);
		const first = alertIdsOf(await session.poll());
		expect(first).toHaveLength(MAX_REMEMBERED_ALERTS + 2);
		expect(first).toContain(undated.id);
		expect(await session.poll()).toBeNull();
	});

	it('emits nothing twice after an empty answer, then a partial one, then the full list again', async () => {
		const session = await activatedSession(sim(), { ...kind });
		const alerts = sim().state.addAlerts(3);
		expect(alertIdsOf(await session.poll())).toEqual(alerts.map(({ id }) => id));

		nextListingAnswers([]);
		expect(await session.poll()).toBeNull();
		nextListingAnswers([alerts[2]]);
		expect(await session.poll()).toBeNull();
		for (let poll = 0; poll < 5; poll++) expect(await session.poll()).toBeNull();
	});

	it('emits an alert with a non-UUID id once, with a warning, never uses it in a path, and keeps polling', async () => {
		const session = await activatedSession(sim(), { ...kind, parameters: MARK_AS_READ });
		const odd = ['all', '../x', '', 'z'.repeat(10_000)].map((id) => sim().state.addAlert({ id }));
		const good = sim().state.addAlert();

		const warnings = recordWarnings();
		const polled = await session.poll().finally(warnings.stop);
		const output = jsonOf(polled);
		expect(output.map(({ id }) => id)).toEqual([...odd, good].map(({ id }) => id));
		expect(
			warnings.messages.filter((message) => /its id is not a UUID/.test(message)),
		).toHaveLength(4);
		expect(output.slice(0, 4).every((json) => typeof json.id_warning === 'string')).toBe(true);
		expect(output[4].id_warning).toBeUndefined();

		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
		expect(markedIds(sim())).toEqual([good.id]);
		expect(
			sim()
				.requestsTo('GET', MARK_PATH)
				.map(({ path }) => path),
		).toEqual([`${MARK_PATH}${good.id}/`]);
	});

	it('remembers very long ids by length and hash: two that differ in one character are each emitted once, in a small state', async () => {
		const session = await activatedSession(sim(), { ...kind });
		const longId = (middle: string) => `${'a'.repeat(5_000)}${middle}${'a'.repeat(5_000)}`;
		// The last two have the same length and the same first hash: the second tells them apart.
		const ids = [longId('x'), longId('y'), `${'a'.repeat(95)}aak3vu`, `${'a'.repeat(95)}aa5tea`];
		const alerts = ids.map((id) => sim().state.addAlert({ id }));
		expect(alertIdsOf(await session.poll())).toEqual(alerts.map(({ id }) => id));
		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
		expect(storedStateSize(session)).toBeLessThan(1_000);
	});

	it('keeps polling past a listed record that is not an alert, says so in the log, and wraps every record as json', async () => {
		const session = await activatedSession(sim(), { ...kind });
		const alert = sim().state.addAlert();
		const hostile = {
			...alert,
			binary: { data: { data: 'x' } },
			error: 'boom',
			pairedItem: { item: 7 },
		};
		nextListingAnswers([hostile, { id: 5 }, 'x', null]);
		const warnings = recordWarnings();
		try {
			const output = await session.poll();
			expect(output?.[0].map((item) => Object.keys(item))).toEqual([['json']]);
			expect(output?.[0][0].json).toEqual(withCategories(hostile));
			// The next listing has only alerts: nothing more to say.
			expect(await session.poll()).toBeNull();
		} finally {
			warnings.stop();
		}
		expect(warnings.messages).toEqual([
			'LibreBOR listed 3 record(s) without a string id under GET /alerts/; they were left out',
		]);
	});

	it('emits once an alert created late with a timestamp older than every alert seen', async () => {
		const session = triggerSession(sim(), { ...kind });
		sim().state.addAlerts(2);
		expect(await session.poll()).toBeNull();
		const late = sim().state.addAlert({ created_at: '2001-01-01T00:00:00Z' });
		expect(alertIdsOf(await session.poll())).toEqual([late.id]);
		expect(await session.poll()).toBeNull();
	});

	it('picks up a state stored by the previous version and emits nothing twice', async () => {
		const alerts = sim().state.addAlerts(2);
		const [older, newer] = alerts.map(
			({ id, created_at }) => [id, Date.parse(created_at)] as const,
		);
		// As version 1 stored it: the newer alert known, the older one behind its activation horizon.
		const staticData = {
			'node:LibreBOR Trigger': { v: 1, known: [newer], pending: [], horizon: older[1] },
		};
		// Include Existing Alerts would emit both, were the stored state not read.
		const parameters = { options: { includeExisting: true } };
		const session = triggerSession(sim(), { ...kind, staticData, parameters });
		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
		const fresh = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([fresh.id]);
	});
});
