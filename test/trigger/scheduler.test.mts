import { describe, expect, it } from 'vitest';

import { recordWarnings } from '../../tools/engine/index.mts';

import {
	ALERTS_PATH,
	alertIdsOf,
	MARK_PATH,
	markedIds,
	useSimulator,
	activatedSession,
	MARK_AS_READ,
} from './triggerSession.mts';

// With N8N_SCHEDULER_ENABLED, n8n 2.41 runs every poll after the activation poll as a task of its
// durable scheduler: a new workflow and context each time, and a budget for the poll.
const sim = useSimulator();

describe("LibreBOR Trigger under n8n's durable scheduler", () => {
	it('emits an alert that arrived between the activation poll and the first scheduled poll', async () => {
		sim().state.addAlert();
		const session = await activatedSession(sim(), { cursorStorage: 'scheduler' });
		const arrived = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([arrived.id]);
		expect(await session.poll()).toBeNull();
	});

	it('emits each alert once, and marks each read, over many scheduled polls', async () => {
		const session = await activatedSession(sim(), {
			cursorStorage: 'scheduler',
			parameters: MARK_AS_READ,
		});
		const emitted: string[] = [];
		for (let burst = 0; burst < 5; burst++) {
			sim().state.addAlerts(3);
			emitted.push(...alertIdsOf(await session.poll()));
		}
		expect(await session.poll()).toBeNull();
		expect(new Set(emitted).size).toBe(15);
		expect(emitted).toHaveLength(15);
		expect(markedIds(sim()).sort()).toEqual([...emitted].sort());
		expect(sim().state.unreadAlerts()).toEqual([]);
	});

	it("marks within half the scheduler's poll budget and leaves the rest for the next poll", async () => {
		const parameters = { options: { markAsRead: true } };
		const session = await activatedSession(sim(), {
			cursorStorage: 'scheduler',
			pollBudgetMs: 4_000,
			parameters,
		});
		// More than a poll's marking time can mark, one mark at a time at first.
		const alerts = sim().state.addAlerts(12);
		expect(alertIdsOf(await session.poll())).toEqual(alerts.map(({ id }) => id));

		sim().injectFault({
			method: 'GET',
			path: `${MARK_PATH}*`,
			afterHandling: true,
			delayMs: 800,
			times: Infinity,
		});
		// Marking stops after 2 s, half the budget: the poll ends with a mark in flight and more
		// than a second to spare.
		const startedAt = Date.now();
		expect(await session.poll()).toBeNull();
		const markedFirst = markedIds(sim()).length;
		expect(Date.now() - startedAt).toBeLessThan(4_000);
		expect(markedFirst).toBeGreaterThan(0);
		expect(markedFirst).toBeLessThan(alerts.length);

		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
		expect(new Set(markedIds(sim()))).toEqual(new Set(alerts.map(({ id }) => id)));
		expect(sim().state.unreadAlerts()).toEqual([]);
	});

	it("skips a poll quietly rather than wait out a 429 past the scheduler's poll budget, so n8n does not abandon the poll", async () => {
		const parameters = { options: { markAsRead: true } };
		const session = await activatedSession(sim(), {
			cursorStorage: 'scheduler',
			pollBudgetMs: 1_000,
			parameters,
		});
		const alert = sim().state.addAlert();
		sim().injectFault({ method: 'GET', path: ALERTS_PATH, status: 429, retryAfter: 5 });
		const startedAt = Date.now();
		const warnings = recordWarnings();
		expect(await session.poll().finally(warnings.stop)).toBeNull();
		expect(Date.now() - startedAt).toBeLessThan(4_000);
		expect(warnings.messages).toEqual([
			expect.stringMatching(/^LibreBOR Trigger skipped a poll: .*time budget of 0.02 min/),
		]);
		// The alert was never emitted, so it is not marked; the next polls emit it, then mark it.
		expect(sim().requestsTo('GET', MARK_PATH)).toEqual([]);
		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
		expect(await session.poll()).toBeNull();
		expect(markedIds(sim())).toEqual([alert.id]);
	});
});

// The package's peer is any n8n-workflow: an n8n before 2.x gives its poll functions no budget.
describe('LibreBOR Trigger in an n8n before poll budgets', () => {
	it('polls and fetches a test event, though n8n has no getPollBudgetMs', async () => {
		const session = await activatedSession(sim(), { pollBudgetMs: null });
		const arrived = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([arrived.id]);
		expect(alertIdsOf(await session.poll('manual'))).toContain(arrived.id);
	});
});
