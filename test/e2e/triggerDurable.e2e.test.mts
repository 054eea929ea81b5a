import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSimulator, type Alert, type Simulator } from '../../tools/simulator/index.mts';
import { triggerAlertItem } from './alertEntries.mts';
import { markedAndListed, markRequests, nextAlertListing } from './alertTraffic.mts';
import { nodeOutputJson } from '../../tools/n8n/executionRun.mts';
import {
	libreBorCredential,
	libreBorCredentialRef,
	libreBorTrigger,
} from '../../tools/n8n/libreBorN8n.mts';
import { startN8nWithLibreBor, type N8nWithLibreBor } from './n8nWithLibreBor.mts';
import type { ExecutionDetails } from '../../tools/n8n/n8nRestClient.mts';
import { noOp, workflow } from '../../tools/n8n/workflowBuilder.mts';

// n8n's durable scheduler (off by default in n8n 2.41): every poll after the activation poll is a
// task of the scheduler, on its minute (no poll at start-up), in a context of its own; with durable
// cursors, a poll's state is committed with the execution it starts, in the same transaction.
const DURABLE_POLLING = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

const setupTimeoutMs = 600_000;
const testTimeoutMs = 240_000;
// A scheduled poll comes once a minute, at a second of its own; a restart adds the start-up.
const nextPollTimeoutMs = 150_000;

const trigger = 'New Alert';
const DUPLICATE_KEY_REFUSED = 'Scheduled execution skipped: duplicate deduplication key';

// Version 1 is a poll node: the scheduler runs its polls, its state is a durable cursor. Version 3
// (as version 2, which trigger.e2e.test.mts runs) schedules its own polls, as under n8n's default
// mode, and emits under deduplication keys, each alert under its own.
describe.each([1, 3])(
	"LibreBOR Trigger version %s under n8n's durable scheduler and durable poll cursors",
	(version) => {
		const workflowId = `libreBorTrigDur${version}`;
		let sim: Simulator;
		let n8n: N8nWithLibreBor;
		let existing: Alert[];
		let first: Alert;
		let firstExecution: ExecutionDetails;

		const waitForExecutions = async (count: number) =>
			await n8n.rest.waitForExecutions(workflowId, count, {
				timeoutMs: nextPollTimeoutMs,
				mode: 'trigger',
			});

		beforeAll(async () => {
			sim = await startSimulator({ seed: true });
			existing = sim.state.unreadAlerts();
			const durablePolling = workflow(
				workflowId,
				'LibreBOR Trigger, durable polling',
				[
					libreBorTrigger(
						trigger,
						{ output: 'alert', options: { markAsRead: true } },
						libreBorCredentialRef,
						version,
					),
					noOp('Received'),
				],
				[[trigger, 'Received']],
			);
			n8n = await startN8nWithLibreBor(
				{
					credentials: [libreBorCredential(sim)],
					workflows: [durablePolling],
				},
				DURABLE_POLLING,
			);
		}, setupTimeoutMs);

		afterAll(async () => {
			await n8n?.remove();
			await sim?.close();
		}, testTimeoutMs);

		it(
			'takes its baseline when published and emits, at the next scheduled poll, only the alert that arrived in between',
			async () => {
				expect(existing.length).toBeGreaterThan(0);
				const activationPoll = nextAlertListing(sim);
				await n8n.rest.activateWorkflow(workflowId);
				await activationPoll;
				// That poll emitted nothing: version 1 keeps its baseline itself, as n8n stored no cursor;
				// n8n saved version 3's at activation.
				first = sim.state.addAlert({ nif: 'B64717838', label: 'Nombramientos' });

				[firstExecution] = await waitForExecutions(1);
				expect(firstExecution).toMatchObject({ mode: 'trigger', status: 'success' });
				expect(nodeOutputJson(firstExecution.run, trigger)).toEqual([triggerAlertItem(first)]);
			},
			testTimeoutMs,
		);

		it(
			'after a restart, marks that alert and emits only the new one: from the cursor n8n committed (version 1), or as n8n refuses the alert emitted again (version 3)',
			async () => {
				await n8n.stop();
				const second = sim.state.addAlert({ nif: 'J99216582', label: 'Revocaciones' });
				await n8n.start();

				const executions = await waitForExecutions(2);
				expect(executions).toHaveLength(2);
				expect(nodeOutputJson(executions[1].run, trigger)).toEqual([triggerAlertItem(second)]);
				// Marked at a poll once n8n reported its execution: version 3 hears of it from the alert
				// it emitted again at the restart, so at the poll after that one.
				await markedAndListed(sim, [first], nextPollTimeoutMs);
				expect(sim.state.alerts.isUnread(first.id)).toBe(false);
				const [markedFirst] = markRequests(sim, first);
				expect(markedFirst.time).toBeGreaterThan(Date.parse(String(firstExecution.stoppedAt)));
				// The alerts unread before publication: never emitted, so never marked.
				expect(existing.flatMap((alert) => markRequests(sim, alert))).toEqual([]);
				expect(existing.every((alert) => sim.state.alerts.isUnread(alert.id))).toBe(true);
			},
			testTimeoutMs,
		);

		it(
			'logs no error or warning about the package',
			async () => {
				await n8n.stop();
				const problems = n8n.problemsMentioning(/librebor/i);
				expect(problems.filter(({ message }) => message !== DUPLICATE_KEY_REFUSED)).toEqual([]);
			},
			testTimeoutMs,
		);
	},
);
