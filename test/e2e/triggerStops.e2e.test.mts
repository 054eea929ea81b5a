import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { startSimulator, type Simulator } from '../../tools/simulator/index.mts';
import { nextAlertListing } from './alertTraffic.mts';
import { nodeOutputJson } from '../../tools/n8n/executionRun.mts';
import { libreBorCredential, triggerWorkflow } from '../../tools/n8n/libreBorN8n.mts';
import { startN8nWithLibreBor, type N8nWithLibreBor } from './n8nWithLibreBor.mts';
import type { ExecutionDetails } from '../../tools/n8n/n8nRestClient.mts';

const setupTimeoutMs = 600_000;
const testTimeoutMs = 900_000;
const trigger = 'New Alert';
const BURST = 300;
const MARK_PATH = '/v2/alerts/mark_as_read/';

/** A published LibreBOR Trigger workflow with a simulated account of its own. */
interface Watched {
	workflowId: string;
	credential: { id: string; name: string };
	sim: Simulator;
	/** Every alert LibreBOR created for it. */
	alerts: string[];
}

async function watched(workflowId: string, credentialId: string): Promise<Watched> {
	// A round trip long enough for a burst's marks to take a moment, as over a real network.
	const sim = await startSimulator({ latencyMs: 40 });
	return {
		workflowId,
		credential: { id: credentialId, name: `LibreBOR ${workflowId}` },
		sim,
		alerts: [],
	};
}

/**
 * The alerts an execution carried: its trigger's output when it ran; for one n8n created and never
 * ran to its end (n8n killed meanwhile: \`crashed\`), the alerts its stored data names, if any.
 * n8n's crash recovery gives a node its event log says finished a stand-in output, one item
 * marked `isArtificialRecoveredEventItem`, in place of the output it never saved.
 */
const carriedBy = (execution: ExecutionDetails, alerts: string[]): string[] => {
	const output = execution.run.data.resultData.runData[trigger]
		? nodeOutputJson(execution.run, trigger)
		: [];
	if (output.length > 0 && !output.some((json) => json.isArtificialRecoveredEventItem))
		return output.map((json) => String(json.id));
	const stored = JSON.stringify(execution.run);
	return alerts.filter((id) => stored.includes(id));
};

const startedAt = (execution: ExecutionDetails) => Date.parse(String(execution.startedAt));

describe('LibreBOR Trigger (version 2) with n8n stopped (SIGTERM, SIGKILL) in the middle of busy polls, and restarted between polls', () => {
	let n8n: N8nWithLibreBor;
	let marking: Watched;
	let plain: Watched;

	const burst = () => {
		for (const target of [marking, plain])
			target.alerts.push(...target.sim.state.addAlerts(BURST).map(({ id }) => id));
	};
	/** Starts n8n (its first poll runs at once) and waits for the stop a hook asked for. */
	const startUntilStopped = async (stopped: Promise<void>) => {
		await n8n.start().catch(() => undefined);
		await stopped;
	};
	/** Arms a hook that, on requests to `path`, may stop n8n; resolves once n8n has stopped. */
	const stopOn = (
		sim: Simulator,
		path: string,
		decide: (stop: () => void) => void,
		signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM',
	) =>
		new Promise<void>((resolve) => {
			let stopping = false;
			const stop = () => {
				if (stopping) return;
				stopping = true;
				void (signal === 'SIGTERM' ? n8n.terminate() : n8n.kill()).then(resolve);
			};
			const disarm = sim.onRequest(
				{ method: 'GET', path },
				() => decide(() => (disarm(), stop())),
				Infinity,
			);
		});

	beforeAll(async () => {
		[marking, plain] = await Promise.all([
			watched('libreBorStopMark', 'libreborStopMark'),
			watched('libreBorStopPlain', 'libreborStopPlai'),
		]);
		n8n = await startN8nWithLibreBor({
			credentials: [
				libreBorCredential(marking.sim, marking.credential),
				libreBorCredential(plain.sim, plain.credential),
			],
			workflows: [
				triggerWorkflow(marking, { options: { markAsRead: true } }),
				triggerWorkflow(plain, {}),
			],
		});
		const firstPolls = Promise.all([nextAlertListing(marking.sim), nextAlertListing(plain.sim)]);
		await n8n.rest.activateWorkflow(marking.workflowId);
		await n8n.rest.activateWorkflow(plain.workflowId);
		await firstPolls;
		await n8n.stop();
	}, setupTimeoutMs);

	afterAll(async () => {
		await n8n?.remove();
		await Promise.all([marking?.sim.close(), plain?.sim.close()]);
	}, testTimeoutMs);

	it(
		'emits every alert of four bursts exactly once, and marks none read before an execution carried it',
		async () => {
			// Stopped as LibreBOR answers the listing: between listing and emitting.
			burst();
			await startUntilStopped(stopOn(marking.sim, '/v2/alerts/', (stop) => stop()));
			// Stopped a moment after the listing: right after emitting.
			burst();
			await startUntilStopped(
				stopOn(marking.sim, '/v2/alerts/', (stop) => void setTimeout(stop, 150)),
			);
			// Killed a moment after the listing: no graceful stop, nothing saved after that.
			burst();
			await startUntilStopped(
				stopOn(marking.sim, '/v2/alerts/', (stop) => void setTimeout(stop, 150), 'SIGKILL'),
			);
			// Restarted twice between polls: each restart emits its last batch again, in vain.
			for (let restart = 0; restart < 2; restart++) {
				const listed = nextAlertListing(marking.sim);
				await n8n.start();
				await listed;
				await n8n.stop();
			}
			// Stopped while the next scheduled poll marks what the first poll emitted.
			burst();
			let marks = 0;
			await startUntilStopped(
				stopOn(marking.sim, `${MARK_PATH}*`, (stop) => {
					if (++marks === 50) stop();
				}),
			);

			await n8n.start();
			// A poll marks for at most 30 s and polls come 20 s apart: on a loaded 2-core machine the
			// alerts take several polls.
			await vi.waitFor(() => expect(marking.sim.state.unreadAlerts()).toEqual([]), {
				timeout: 480_000,
				interval: 1_000,
			});
			// Marked alerts were carried; the plain workflow's last burst may still be on its way.
			for (const target of [marking, plain]) {
				const { executions, carried } = await vi.waitFor(
					async () => {
						const executions = await n8n.rest.waitForExecutions(target.workflowId, 1, {
							mode: 'trigger',
						});
						const carried = executions.flatMap((execution) => carriedBy(execution, target.alerts));
						const unfinished = executions.filter(({ status }) => status !== 'success');
						expect(
							new Set(carried),
							`${target.workflowId}; executions that did not succeed: ${JSON.stringify(unfinished.map(({ id, status }) => ({ id, status })))}`,
						).toEqual(new Set(target.alerts));
						return { executions, carried };
					},
					{ timeout: 120_000, interval: 2_000 },
				);
				expect(carried.filter((id, index) => carried.indexOf(id) !== index)).toEqual([]);
				if (target === marking) expectNoMarkBeforeCarried(target, executions);
			}
		},
		testTimeoutMs,
	);
});

/** Every mark request came after an execution carrying that alert had started. */
function expectNoMarkBeforeCarried({ sim, alerts }: Watched, executions: ExecutionDetails[]) {
	const firstCarried = new Map<string, number>();
	for (const execution of executions)
		for (const id of carriedBy(execution, alerts))
			if (!firstCarried.has(id)) firstCarried.set(id, startedAt(execution));
	const early = sim
		.requestsTo('GET', MARK_PATH)
		.map((request) => ({ id: request.path.slice(MARK_PATH.length, -1), time: request.time }))
		.filter(({ id, time }) => !(time >= (firstCarried.get(id) ?? Infinity)));
	expect(early).toEqual([]);
}
