// Version 2 emits each batch of alerts under a deduplication key that n8n keeps with the execution
// (tools/engine/triggerNodeSession.mts models n8n's unique index): what the key is, what a restart
// emits again, and what n8n's execution pruning leaves.
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { TriggerNodeSession } from '../../tools/engine/index.mts';
import {
	activatedSession,
	ALERTS_PATH,
	alertIdsOf,
	jsonOf,
	MARK_AS_READ,
	triggerSession,
	unreadIds,
	useSimulator,
} from './triggerSession.mts';
import { withClock } from '../support/wallClock.mts';

const sim = useSimulator();
const DAY_MS = 24 * 60 * 60_000;

/** The node's state as a restart finds it when an emission of `ageMs` ago was never confirmed. */
function stateWithUnconfirmedEmission(alertIds: string[], ageMs: number) {
	const key = `librebor-trigger:${'0'.repeat(64)}`;
	return {
		'node:LibreBOR Trigger': {
			v: 2,
			known: alertIds.map((id) => [id, null]),
			pending: [],
			inFlight: [[key, alertIds, Date.now() - ageMs]],
		},
	};
}

describe('LibreBOR Trigger version 2, deduplication keys', () => {
	it('emits each batch under a key of its own that names no alert, workflow or account', async () => {
		const session = await activatedSession(sim(), { version: 2 });
		sim().state.addAlert();
		await session.poll();
		const [[key, , emittedAt]] = session.savedNodeStaticData.inFlight as Array<
			[string, string[], number]
		>;
		expect(key).toMatch(/^librebor-trigger:[0-9a-f]{64}$/);
		expect(emittedAt).toBeGreaterThan(Date.now() - 60_000);
		sim().state.addAlert();
		await session.poll();
		const keys = (session.savedNodeStaticData.inFlight as Array<[string]>).map(([k]) => k);
		expect(keys).toHaveLength(1);
		expect(keys[0]).not.toBe(key);
	});

	it('after a restart, emits the unconfirmed batch again under its key: refused while its execution exists, run and flagged once n8n pruned it', async () => {
		const session = (await activatedSession(sim(), { version: 2 })) as TriggerNodeSession;
		const alert = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);

		session.restart();
		expect(await session.poll()).toBeNull();
		expect(session.executions).toHaveLength(1);

		// Nothing emitted since, so the stored state still holds the batch as unconfirmed; n8n then
		// prunes its execution (after 14 days by default) and restarts.
		session.pruneExecutions();
		session.restart();
		const repeated = jsonOf(await session.poll());
		expect(repeated.map(({ id }) => id)).toEqual([alert.id]);
		expect(repeated[0].possible_repeat).toBe(true);
		expect(session.executions).toHaveLength(2);
	});

	it('gives alerts of the same time one key, whatever order LibreBOR lists them in after n8n lost the save of the state', async () => {
		const session = await activatedSession(sim(), { version: 2 });
		const sameTime = new Date().toISOString();
		const [first, second] = sim().state.addAlerts(2, { created_at: sameTime });
		session.failNextSave();
		// Oldest first, and ties in the reverse of LibreBOR's newest-first listing.
		expect(alertIdsOf(await session.poll())).toEqual([first.id, second.id]);

		// The restart finds the state of before that poll; the contract leaves ties unordered.
		session.restart();
		sim().injectFault({
			method: 'GET',
			path: ALERTS_PATH,
			status: 200,
			body: JSON.stringify([first, second]),
			contentType: 'application/json',
		});
		expect(await session.poll()).toBeNull();
		expect(session.executions).toHaveLength(1);
	});

	it('starts no execution for a lost batch whose alerts were all read in LibreBOR meanwhile', async () => {
		await withClock(async (setTime) => {
			const session = await activatedSession(sim(), { version: 2 });
			const alert = sim().state.addAlert();
			session.executionFate = 'neverCreated';
			await session.poll();

			session.restart();
			session.executionFate = 'finishes';
			sim().state.alerts.markRead(alert.id);
			// Held while it may be a glitch, then let go once missing from 3 listings over 10 minutes.
			for (let poll = 0; poll < 5; poll++) {
				expect(await session.poll()).toBeNull();
				setTime(Date.now() + 4 * 60_000);
			}
			expect(session.executions).toEqual([]);
			// Let go: no longer in flight in the state the trigger keeps.
			const state = session.liveStaticData?.[`node:${session.nodeName}`] as { inFlight?: unknown };
			expect(state.inFlight).toBeUndefined();
		});
	});

	it('emits a batch n8n said it could not start again at the next poll, not flagged as a possible repeat', async () => {
		const session = await activatedSession(sim(), { version: 2 });
		const alert = sim().state.addAlert();
		session.executionFate = 'refused';
		expect(await session.poll()).not.toBeNull();
		expect(session.executions).toEqual([]);

		session.executionFate = 'finishes';
		const again = jsonOf(await session.poll());
		expect(again.map(({ id }) => id)).toEqual([alert.id]);
		expect(again[0].possible_repeat).toBeUndefined();
		expect(session.executions).toHaveLength(1);
		// In flight once, as emitted again: not also as held.
		expect(session.savedNodeStaticData.inFlight).toEqual([
			[expect.any(String), [alert.id], expect.any(Number)],
		]);
	});

	it('holds a batch n8n could not start while a listing lacks some of it, and emits it whole once listed', async () => {
		const session = await activatedSession(sim(), { version: 2 });
		const [first, second] = sim().state.addAlerts(2);
		session.executionFate = 'refused';
		await session.poll();

		session.executionFate = 'finishes';
		// One answer lists only one of them (a glitch, or a listing capped before the other).
		sim().injectFault({
			method: 'GET',
			path: ALERTS_PATH,
			status: 200,
			body: JSON.stringify([second]),
			contentType: 'application/json',
		});
		expect(await session.poll()).toBeNull();
		expect(session.executions).toEqual([]);

		const again = jsonOf(await session.poll());
		expect(again.map(({ id }) => id)).toEqual([first.id, second.id]);
		expect(again.map(({ possible_repeat }) => possible_repeat)).toEqual([undefined, undefined]);
		expect(await session.poll()).toBeNull();
		expect(session.executions).toHaveLength(1);
	});

	it('lets a held batch go without an alert read in LibreBOR meanwhile, once that one counts as read', async () => {
		await withClock(async (setTime) => {
			const session = await activatedSession(sim(), { version: 2 });
			const [older, newer] = sim().state.addAlerts(2);
			session.executionFate = 'refused';
			await session.poll();

			// Read in LibreBOR's panel: older than every alert listed, as one beyond a capped listing.
			session.executionFate = 'finishes';
			sim().state.alerts.markRead(older.id);
			for (let poll = 0; poll < 3; poll++) {
				expect(await session.poll()).toBeNull();
				setTime(Date.now() + 4 * 60_000);
			}
			// Missing from 3 listings over 10 minutes: read.
			expect(alertIdsOf(await session.poll())).toEqual([newer.id]);
			expect(await session.poll()).toBeNull();
			expect(session.executions.map(alertIdsOf)).toEqual([[newer.id]]);
		});
	});

	it('emits nothing from a poll still running when the workflow is published anew: each alert runs once', async () => {
		const session = await activatedSession(sim(), { version: 2 });
		const first = sim().state.addAlert();
		let answer = () => {};
		const answered = new Promise<void>((resolve) => (answer = resolve));
		sim().onRequest({ method: 'GET', path: ALERTS_PATH }, async () => await answered);
		const stale = session.poll();
		while (sim().requestsTo('GET', ALERTS_PATH).length < 2) await sleep(5);

		// Published anew while that poll waits for its listing, which lists the first alert alone.
		const second = sim().state.addAlert();
		session.republish({});
		expect(alertIdsOf(await session.poll())).toEqual([first.id, second.id]);
		answer();
		expect(await stale).toBeNull();
		expect(session.executions.map(alertIdsOf)).toEqual([[first.id, second.id]]);
		expect(await session.poll()).toBeNull();
	});

	it('takes an unconfirmed batch older than a week as carried: marks it, emits it not again', async () => {
		const alerts = sim().state.addAlerts(2);
		const ids = alerts.map(({ id }) => id);
		const session = triggerSession(sim(), {
			version: 2,
			parameters: MARK_AS_READ,
			staticData: stateWithUnconfirmedEmission(ids, 8 * DAY_MS),
		});
		expect(await session.poll()).toBeNull();
		expect(await session.poll()).toBeNull();
		expect(session.executions).toEqual([]);
		expect(unreadIds(sim())).toEqual([]);
	});

	it('emits an unconfirmed batch younger than a week again, flagged, when no execution has its key', async () => {
		const alerts = sim().state.addAlerts(2);
		const ids = alerts.map(({ id }) => id);
		const session = triggerSession(sim(), {
			version: 2,
			staticData: stateWithUnconfirmedEmission(ids, 6 * DAY_MS),
		});
		const emitted = jsonOf(await session.poll());
		expect(emitted.map(({ id }) => id)).toEqual(ids);
		expect(emitted.every((item) => item.possible_repeat === true)).toBe(true);
		expect(await session.poll()).toBeNull();
	});

	const custom = (cronExpression: string) => ({ mode: 'custom', cronExpression });
	it.each([
		['every 10 seconds', [custom('*/10 * * * * *')]],
		['every 10 seconds, written with two spaces', [custom('*/10  * * * * *')]],
		['at two seconds of each minute', [custom('5,35 * * * * *')]],
		[
			'every minute and, besides, every 10 seconds',
			[{ mode: 'everyMinute' }, custom('*/10 * * * * *')],
		],
	])(
		'refuses Poll Times %s before it polls, as n8n does for its poll triggers',
		async (_, item) => {
			const session = triggerSession(sim(), { version: 2, parameters: { pollTimes: { item } } });
			await expect(session.poll()).rejects.toThrow('It has to be at least a minute');
			expect(sim().requests).toEqual([]);
		},
	);

	it.each<[string, { item?: Array<{ cronExpression: string }> }]>([
		['every 5 minutes (five fields)', { item: [custom('*/5 * * * *')] }],
		['at second 30 of each minute', { item: [custom('30 * * * * *')] }],
		['none (it polls at activation only)', {}],
	])('takes Poll Times %s, and has n8n start a poll at each', async (_, pollTimes) => {
		const session = triggerSession(sim(), {
			version: 2,
			parameters: { pollTimes },
		}) as TriggerNodeSession;
		expect(await session.poll()).toBeNull();
		expect(sim().requests.length).toBeGreaterThan(0);
		const expressions = (pollTimes.item ?? []).map(({ cronExpression }) => cronExpression);
		expect(session.cronExpressions).toEqual(expressions);
	});
});
