import { describe, expect, it } from 'vitest';

import {
	alertIdsOf,
	TRIGGER_KINDS,
	jsonOf,
	MARK_PATH,
	triggerSession,
	useSimulator,
	activatedSession,
} from './triggerSession.mts';

const sim = useSimulator();

describe.each(TRIGGER_KINDS)('LibreBOR Trigger, Fetch Test Event (%s)', (_, kind) => {
	it('shows the three most recent alerts, oldest first, and changes nothing for the next production poll', async () => {
		const parameters = { options: { markAsRead: true } };
		const session = await activatedSession(sim(), { ...kind, parameters });
		const fresh = sim().state.addAlerts(4);
		const savedBefore = session.savedStaticData;
		const liveBefore = session.liveStaticData;

		expect(alertIdsOf(await session.poll('manual'))).toEqual(fresh.slice(1).map(({ id }) => id));
		expect(alertIdsOf(await session.poll('manual'))).toEqual(fresh.slice(1).map(({ id }) => id));

		expect(session.savedStaticData).toEqual(savedBefore);
		expect(session.liveStaticData).toEqual(liveBefore);
		expect(sim().requestsTo('GET', MARK_PATH)).toEqual([]);
		expect(alertIdsOf(await session.poll())).toEqual(fresh.map(({ id }) => id));
	});

	it('shows alerts before the workflow is ever activated, and the activation still takes its baseline', async () => {
		const existing = sim().state.addAlerts(2);
		const session = triggerSession(sim(), { ...kind });
		expect(alertIdsOf(await session.poll('manual'))).toEqual(existing.map(({ id }) => id));
		expect(await session.poll()).toBeNull();
		const fresh = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([fresh.id]);
	});
});

describe('LibreBOR Trigger, Fetch Test Event', () => {
	it('shapes the test event like production: entries, filtered by label', async () => {
		const alert = sim().state.addAlert({ labels: ['Nombramientos', 'Revocaciones'] });
		sim().state.addAlert({ label: 'Nombramientos' });
		const session = triggerSession(sim(), {
			parameters: { output: 'entry', options: { labels: 'revocaciones' } },
		});
		const output = jsonOf(await session.poll('manual'));
		expect(output.map((entry) => [entry.alert_id, entry.label])).toEqual([
			[alert.id, 'Revocaciones'],
		]);
	});

	it('says there are no unread alerts and how to get some', async () => {
		const session = triggerSession(sim());
		const error = await session.poll('manual').then(
			() => undefined,
			(reason: Error & { description?: string }) => reason,
		);
		expect(error?.message).toBe('There are no unread LibreBOR alerts to show');
		expect(error?.description).toContain('Watch List > Follow');
		expect(error?.description).toContain('sandbox');
	});

	it.each([
		{
			// Quoted as typed, without the spaces around.
			filters: 'labels',
			options: { labels: ' Disolución ' },
			says: 'matches the labels "Disolución"',
		},
		{
			filters: 'labels or the categories',
			options: { labels: 'Disolución', categories: ['capital', 'ownership'] },
			says: 'matches the labels "Disolución" or the categories capital, ownership',
		},
		{
			filters: 'categories',
			options: { categories: ['capital'] },
			says: 'matches the categories capital',
		},
		{
			filters: 'company',
			options: { company: { __rl: true, mode: 'list', value: 'A86212420' } },
			says: 'passes the filters in Options',
		},
		{
			filters: 'date',
			options: { createdAfter: '2099-01-01' },
			says: 'passes the filters in Options',
		},
	])('says when no unread alert matches the $filters', async ({ options, says }) => {
		sim().state.follow('A86212420');
		sim().state.addAlerts(2, { nif: 'B64717838', label: 'Nombramientos' });
		const session = triggerSession(sim(), { parameters: { options } });
		await expect(session.poll('manual')).rejects.toMatchObject({
			message: `None of the 2 unread LibreBOR alerts ${says}`,
			description: expect.stringMatching(/^Check the filters in Options/),
		});
	});

	it.each([
		['lists a person, with one item per person change', 'position', 'a person change'],
		['has an entry, with one item per bulletin entry', 'entry', 'a bulletin entry'],
	])('says when no unread alert %s', async (_case, output, what) => {
		sim().state.addAlerts(2, { label: 'Ampliación de capital', data: [] });
		const session = triggerSession(sim(), { parameters: { output } });
		await expect(session.poll('manual')).rejects.toMatchObject({
			message: `None of the 2 unread LibreBOR alerts has ${what} to show`,
			description: 'Set Output to One Item per Alert to see the alerts themselves.',
		});
	});
});
