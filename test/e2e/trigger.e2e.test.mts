import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSimulator, type Alert, type Simulator } from '../../tools/simulator/index.mts';
import { triggerAlertItem, triggerEntryItems } from './alertEntries.mts';
import { markedAndListed, markRequests, nextAlertListing } from './alertTraffic.mts';
import { nodeOutputJson } from '../../tools/n8n/executionRun.mts';
import { libreBorCredential, triggerWorkflow } from '../../tools/n8n/libreBorN8n.mts';
import { startN8nWithLibreBor, type N8nWithLibreBor } from './n8nWithLibreBor.mts';
import type { ExecutionDetails } from '../../tools/n8n/n8nRestClient.mts';

const setupTimeoutMs = 600_000;
const testTimeoutMs = 180_000;
// The trigger polls every 20 s (triggerWorkflow); a restart adds the start-up.
const nextPollTimeoutMs = 90_000;

const trigger = 'New Alert';

/**
 * Whether the n8n under test refuses a second execution under one deduplication key: n8n 2.41 does
 * (the release CI runs); on the older releases `npm run test:compat` runs, a restart may repeat the
 * last emission, flagged.
 */
const n8nVersion = process.env.LIBREBOR_N8N_VERSION ?? '2.41.1';
const refusesDuplicateKeys = n8nVersion.startsWith('2.41.');
const POSSIBLE_REPEAT = 'possible_repeat';
const DUPLICATE_KEY_REFUSED = 'Scheduled execution skipped: duplicate deduplication key';

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

/**
 * The items, without those an n8n that keeps no deduplication key emitted again after a restart:
 * each of those says so. On n8n 2.41 there is none to leave out.
 */
function withoutRepeats(items: Array<Record<string, unknown>>) {
	const repeats = items.filter((item) => item[POSSIBLE_REPEAT] === true);
	if (refusesDuplicateKeys) expect(repeats).toEqual([]);
	// n8n 1.x keeps no key: the batch emitted again after the restart runs, flagged.
	if (n8nVersion.startsWith('1.')) expect(repeats.length).toBeGreaterThan(0);
	return items.filter((item) => item[POSSIBLE_REPEAT] !== true);
}

const alertListings = (sim: Simulator, since = 0) =>
	sim.requests
		.slice(since)
		.filter((request) => request.method === 'GET' && request.path === '/v2/alerts/');

describe('LibreBOR Trigger in a published workflow of a real n8n', () => {
	let n8n: N8nWithLibreBor;

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
		n8n = await startN8nWithLibreBor({
			credentials: [
				libreBorCredential(alerting.sim, alerting.credential),
				libreBorCredential(marking.sim, marking.credential),
			],
			workflows: [
				triggerWorkflow(alerting, { output: 'alert' }),
				triggerWorkflow(marking, { output: 'entry', options: { markAsRead: true } }),
			],
		});
	}, setupTimeoutMs);

	afterAll(async () => {
		await n8n?.remove();
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
		'after a restart, emits the alert that arrived while n8n was down, and not the last one emitted before the stop; marks only what an execution carried',
		async () => {
			await n8n.stop();
			const second = alerting.sim.state.addAlert({ nif: 'J99216582', label: 'Ceses/Dimisiones' });
			const secondMarked = marking.sim.state.addAlert({
				nif: 'J99216582',
				label: 'Ampliación de capital',
			});
			const logSince = alerting.sim.requests.length;
			await n8n.start();

			const carriedAfterRestart = async (testCase: TriggerCase) => {
				const executions = await waitForExecutions(testCase, 2);
				const after = executions.slice(1).map((execution) => execution.run);
				return after.flatMap((run) => nodeOutputJson(run, trigger));
			};
			// The restart emitted the last batch before the stop again, under its deduplication key:
			// n8n refused it, as an execution has it already (docs/trigger.md).
			const alertsAfter = withoutRepeats(await carriedAfterRestart(alerting));
			const entriesAfter = withoutRepeats(await carriedAfterRestart(marking));
			expect(alertListings(alerting.sim, logSince).length).toBeGreaterThan(0);
			expect(alertsAfter).toEqual([triggerAlertItem(second)]);
			expect(entriesAfter).toEqual(triggerEntryItems(secondMarked));
			expect(alerting.sim.state.alerts.isUnread(first.id)).toBe(true);

			// Neither was marked before the stop; both are marked at a poll after their executions.
			expect(markRequests(marking.sim, firstMarked)).toEqual([]);
			await markedAndListed(marking.sim, [firstMarked, secondMarked], nextPollTimeoutMs);
			expect(marking.sim.state.alerts.isUnread(secondMarked.id)).toBe(false);
			expect(marking.sim.state.alerts.isUnread(firstMarked.id)).toBe(false);
		},
		testTimeoutMs,
	);

	it(
		"logs no error or warning about the package, but n8n's notices of the duplicates it refused",
		async () => {
			await n8n.stop();

			// n8n's notice that it refused a batch emitted again under its key is how "once" holds.
			const refused = (entry: { message: string }) => entry.message === DUPLICATE_KEY_REFUSED;
			const problems = n8n.problemsMentioning(/librebor/i);
			expect(problems.filter((entry) => !refused(entry))).toEqual([]);
			if (refusesDuplicateKeys) expect(problems.filter(refused).length).toBeGreaterThan(0);
		},
		testTimeoutMs,
	);
});
