import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { startSimulator, type Alert, type Simulator } from '../../tools/simulator/index.mts';
import { triggerAlertItem, triggerEntryItems } from './alertEntries.mts';
import { markRequests, nextAlertListing } from './alertTraffic.mts';
import { nodeOutputJson } from '../../tools/n8n/executionRun.mts';
import { libreBorCredential, libreBorTrigger } from '../../tools/n8n/libreBorN8n.mts';
import { createN8nWithLibreBor } from './n8nWithLibreBor.mts';
import { importCredentials, importWorkflows } from '../../tools/n8n/n8nCli.mts';
import type { ExecutionDetails } from '../../tools/n8n/n8nRestClient.mts';
import { restartableN8n, type RestartableN8n } from '../../tools/n8n/restartableN8n.mts';
import type { N8nUserFolder } from '../../tools/n8n/n8nUserFolder.mts';
import { noOp, workflow, type WorkflowDefinition } from '../../tools/n8n/workflowBuilder.mts';

const setupTimeoutMs = 600_000;
const testTimeoutMs = 180_000;
// n8n's shortest poll interval is a minute, at a random second.
const nextPollTimeoutMs = 90_000;

const trigger = 'New Alert';

/** A LibreBOR Trigger workflow with a simulated account of its own. */
interface TriggerCase {
	workflowId: string;
	credential: { id: string; name: string };
	sim: Simulator;
}

async function triggerCase(workflowId: string, credentialId: string): Promise<TriggerCase> {
	return {
		workflowId,
		credential: { id: credentialId, name: `LibreBOR ${workflowId}` },
		sim: await startSimulator({ seed: true }),
	};
}

function triggerWorkflow(testCase: TriggerCase, parameters: INodeParameters): WorkflowDefinition {
	return workflow(
		testCase.workflowId,
		`LibreBOR Trigger ${testCase.workflowId}`,
		[libreBorTrigger(trigger, parameters, testCase.credential), noOp('Received')],
		[[trigger, 'Received']],
	);
}

const alertListings = (sim: Simulator, since = 0) =>
	sim.requests
		.slice(since)
		.filter((request) => request.method === 'GET' && request.path === '/v2/alerts/');

describe('LibreBOR Trigger in a published workflow of a real n8n', () => {
	let folder: N8nUserFolder;
	let n8n: RestartableN8n;

	// With default options: only its memory keeps it from emitting an alert twice.
	let alerting: TriggerCase;
	// Marks each emitted alert read; one item per alert entry.
	let marking: TriggerCase;
	// The alerts of the first scheduled poll, for the restart that follows.
	let first: Alert;
	let firstMarked: Alert;

	const executionsOf = async (testCase: TriggerCase) =>
		await n8n.rest.listExecutions({ workflowId: testCase.workflowId });
	const waitForExecutions = async (
		testCase: TriggerCase,
		count: number,
	): Promise<ExecutionDetails[]> =>
		await n8n.rest.waitForExecutions(testCase.workflowId, count, {
			timeoutMs: nextPollTimeoutMs,
			mode: 'trigger',
		});

	beforeAll(async () => {
		[alerting, marking] = await Promise.all([
			triggerCase('libreBorTrigAlrt', 'libreborAlerting'),
			triggerCase('libreBorTrigMark', 'libreborMarking1'),
		]);
		folder = await createN8nWithLibreBor();
		await importCredentials(folder, [
			libreBorCredential(alerting.sim, alerting.credential),
			libreBorCredential(marking.sim, marking.credential),
		]);
		await importWorkflows(folder, [
			triggerWorkflow(alerting, { output: 'alert' }),
			triggerWorkflow(marking, { output: 'entry', options: { markAsRead: true } }),
		]);
		n8n = restartableN8n(folder);
		await n8n.start();
	}, setupTimeoutMs);

	afterAll(async () => {
		await n8n?.stop();
		await folder?.remove();
		await Promise.all([alerting?.sim.close(), marking?.sim.close()]);
	}, testTimeoutMs);

	it(
		'polls as soon as it is published, and emits none of the alerts that were already there',
		async () => {
			const firstPolls = Promise.all([
				nextAlertListing(alerting.sim),
				nextAlertListing(marking.sim),
			]);
			await n8n.rest.activateWorkflow(alerting.workflowId);
			await n8n.rest.activateWorkflow(marking.workflowId);
			await firstPolls;

			expect(await executionsOf(alerting)).toEqual([]);
			expect(await executionsOf(marking)).toEqual([]);
		},
		testTimeoutMs,
	);

	it(
		'shows recent alerts in a manual run ("Fetch Test Event") without using them up',
		async () => {
			first = alerting.sim.state.addAlert({ nif: 'B64717838', label: 'Nombramientos' });

			const executionId = await n8n.rest.runManually(alerting.workflowId, {
				triggerToStartFrom: { name: trigger },
				destinationNode: { nodeName: trigger, mode: 'inclusive' },
			});
			const execution = await n8n.rest.waitForExecution(executionId);

			expect(execution).toMatchObject({ mode: 'manual', status: 'success' });
			const shown = nodeOutputJson(execution.run, trigger);
			expect(shown.length).toBeLessThanOrEqual(3);
			// Oldest first, so the newest alert comes last.
			expect(shown.at(-1)).toEqual(triggerAlertItem(first));
		},
		testTimeoutMs,
	);

	it(
		'emits an alert that arrives afterwards at the next scheduled poll, in one execution',
		async () => {
			firstMarked = marking.sim.state.addAlert({
				nif: 'B64717838',
				labels: ['Revocaciones', 'Nombramientos'],
			});

			// Whether the alert was still unread when its execution showed up (its next poll is a minute later).
			const marked = waitForExecutions(marking, 1).then(([execution]) => ({
				execution,
				unreadThen: marking.sim.state.alerts.isUnread(firstMarked.id),
				markRequestsThen: markRequests(marking.sim, firstMarked),
			}));
			const [[alertExecution], { execution: markExecution, unreadThen, markRequestsThen }] =
				await Promise.all([waitForExecutions(alerting, 1), marked]);

			expect(alertExecution).toMatchObject({ mode: 'trigger', status: 'success' });
			expect(nodeOutputJson(alertExecution.run, trigger)).toEqual([triggerAlertItem(first)]);
			expect(nodeOutputJson(alertExecution.run, 'Received')).toEqual([triggerAlertItem(first)]);

			expect(markExecution).toMatchObject({ mode: 'trigger', status: 'success' });
			expect(nodeOutputJson(markExecution.run, trigger)).toEqual(triggerEntryItems(firstMarked));
			// Marked only at the next poll, once n8n has stored this execution.
			expect(unreadThen).toBe(true);
			expect(markRequestsThen).toEqual([]);
		},
		testTimeoutMs,
	);

	it(
		'after a restart, emits the alert that arrived while n8n was down and, once more, the last one emitted before the stop; marks only what an execution carried',
		async () => {
			await n8n.stop();
			const second = alerting.sim.state.addAlert({ nif: 'J99216582', label: 'Ceses/Dimisiones' });
			const secondMarked = marking.sim.state.addAlert({
				nif: 'J99216582',
				label: 'Ampliación de capital',
			});
			const logSince = {
				alerting: alerting.sim.requests.length,
				marking: marking.sim.requests.length,
			};
			await n8n.start();

			const alertExecutions = await waitForExecutions(alerting, 2);
			const markExecutions = await waitForExecutions(marking, 2);

			// n8n saves a poll's memory before it creates the execution, and saved nothing since the
			// last emission: a restarted n8n cannot tell that its execution exists, so the trigger
			// emits those alerts once more rather than risk losing them (docs/trigger.md).
			expect(alertListings(alerting.sim, logSince.alerting).length).toBeGreaterThan(0);
			expect(alertExecutions).toHaveLength(2);
			expect(nodeOutputJson(alertExecutions[1].run, trigger)).toEqual([
				triggerAlertItem(first),
				triggerAlertItem(second),
			]);
			expect(alertExecutions[1].mode).toBe('trigger');
			// Without Mark as Read the first alert is still unread.
			expect(alerting.sim.state.alerts.isUnread(first.id)).toBe(true);

			expect(markExecutions).toHaveLength(2);
			expect(nodeOutputJson(markExecutions[1].run, trigger)).toEqual([
				...triggerEntryItems(firstMarked),
				...triggerEntryItems(secondMarked),
			]);
			// Neither was marked before the stop; both are marked at the poll after this execution.
			expect(markRequests(marking.sim, firstMarked)).toEqual([]);
			await vi.waitFor(
				() => expect(marking.sim.state.alerts.isUnread(secondMarked.id)).toBe(false),
				{ timeout: nextPollTimeoutMs, interval: 500 },
			);
			expect(marking.sim.state.alerts.isUnread(firstMarked.id)).toBe(false);
			const [markedFirst] = markRequests(marking.sim, firstMarked);
			expect(markedFirst.time).toBeGreaterThan(Date.parse(String(markExecutions[1].stoppedAt)));
		},
		testTimeoutMs,
	);

	it(
		'logs no error or warning about the package',
		async () => {
			await n8n.stop();

			expect(n8n.problemsMentioning(/librebor/i)).toEqual([]);
		},
		testTimeoutMs,
	);
});
