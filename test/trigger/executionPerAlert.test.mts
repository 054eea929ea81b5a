// Version 3 starts an execution for each alert, under the alert's own deduplication key, so that n8n
// refuses an alert's second execution whatever the trigger's saved state says. Version 2's key is
// its batch's: a saved state older than the last emission (a save n8n lost, or an execution that
// saved the static data it started with over a later one) re-forms batches, and their keys with them.
import { describe, expect, it } from 'vitest';

import type { TriggerNodeSession } from '../../tools/engine/index.mts';
import { activatedSession, alertIdsOf, MARK_AS_READ, useSimulator } from './triggerSession.mts';

const sim = useSimulator();

/** How many executions carried each alert, by id. */
function executionsPerAlert(session: TriggerNodeSession): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const id of session.executions.flatMap(alertIdsOf)) counts[id] = (counts[id] ?? 0) + 1;
	return counts;
}

const triggerOf = async (version: 2 | 3) =>
	(await activatedSession(sim(), { version, parameters: MARK_AS_READ })) as TriggerNodeSession;

describe('LibreBOR Trigger version 3, one execution per alert', () => {
	it('starts an execution for each new alert, with its items; version 2 one for the poll', async () => {
		const perAlert = await triggerOf(3);
		const alerts = sim().state.addAlerts(3);
		expect(alertIdsOf(await perAlert.poll())).toEqual(alerts.map(({ id }) => id));
		expect(perAlert.executions.map(alertIdsOf)).toEqual(alerts.map(({ id }) => [id]));
		// Each alert is marked as read once its own execution is settled, by a later poll.
		for (let poll = 0; poll < 2; poll++) expect(await perAlert.poll()).toBeNull();
		expect(sim().state.unreadAlerts()).toEqual([]);

		const perPoll = await triggerOf(2);
		const more = sim().state.addAlerts(3);
		await perPoll.poll();
		expect(perPoll.executions.map(alertIdsOf)).toEqual([more.map(({ id }) => id)]);
	});

	it('runs each alert once when n8n lost the save of an emission and a new alert came before the restart', async () => {
		const session = await triggerOf(3);
		const first = sim().state.addAlert();
		session.failNextSave();
		expect(alertIdsOf(await session.poll())).toEqual([first.id]);
		const second = sim().state.addAlert();
		session.restart();
		await session.poll();
		for (let poll = 0; poll < 2; poll++) expect(await session.poll()).toBeNull();
		expect(executionsPerAlert(session)).toEqual({ [first.id]: 1, [second.id]: 1 });
		expect(sim().state.unreadAlerts()).toEqual([]);
	});

	it('runs each alert once when an execution saved the static data it started with over a later state', async () => {
		const session = await triggerOf(3);
		const a = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([a.id]);
		// What A's execution read when it started; it ends having changed the workflow's static data
		// (the LibreBOR node keeping a learned limit, a Code node), and n8n saves its whole copy.
		const startedWith = structuredClone(session.savedStaticData);
		const b = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([b.id]);
		session.replaceSavedStaticData(startedWith);
		const c = sim().state.addAlert();
		session.restart();
		await session.poll();
		expect(executionsPerAlert(session)).toEqual({ [a.id]: 1, [b.id]: 1, [c.id]: 1 });
	});
});
