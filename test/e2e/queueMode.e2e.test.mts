import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
	makeCif,
	startSimulator,
	type Alert,
	type Simulator,
} from '../../tools/simulator/index.mts';
import { nodeOutputJson } from '../../tools/n8n/executionRun.mts';
import { libreBorCredential, libreBor, libreBorTrigger } from '../../tools/n8n/libreBorN8n.mts';
import { packedLibreBorPackage } from './libreBorPackage.mts';
import { findingsAboutTheInstance, n8n3BreakingChanges } from './n8nBreakingChanges.mts';
import { importCredentials, importWorkflows } from '../../tools/n8n/n8nCli.mts';
import { problemsMentioning, readLogFile } from '../../tools/n8n/n8nLog.mts';
import { N8nRestClient, type ExecutionDetails } from '../../tools/n8n/n8nRestClient.mts';
import { startQueueCluster, type QueueCluster } from '../../tools/n8n/queue/queueCluster.mts';
import {
	callWebhook as callN8nWebhook,
	webhook,
	webhookRegistered,
} from '../../tools/n8n/webhooks.mts';
import { noOp, splitOut, workflow } from '../../tools/n8n/workflowBuilder.mts';

const setupTimeoutMs = 600_000;
const testTimeoutMs = 480_000;
// n8n's shortest poll interval is a minute, at a random second; a restart of main adds its start-up,
// which a busy machine makes long (90 s was too short beside a mutation run).
const nextPollTimeoutMs = 150_000;

const followWorkflowId = 'libreBorQueueFolw';
const orderWorkflowId = 'libreBorQueueOrdr';
const orderWebhookPath = 'queue-order';
const racingOrderWorkflowId = 'libreBorQueueRace';
const racingOrderWebhookPath = 'queue-order-racing';
const waitingOrderWorkflowId = 'libreBorQueueWait';
const waitingOrderWebhookPath = 'queue-order-and-wait';
const triggerWorkflowId = 'libreBorQueueTrig';
const atOnceWorkflowId = 'libreBorQueueMany';
const atOncePath = 'queue-follow-many';
const webhookPath = 'queue-follow';
const trigger = 'New Alert';

/** A webhook that orders a document per call, or one per entry of the body's `orders` list. */
const orderFromWebhook = (
	id: string,
	name: string,
	path: string,
	order: { webhookId: string; onePerItem: boolean; options?: INodeParameters },
) => {
	const source = order.onePerItem ? '$json' : '$json.body';
	const nodes = [
		webhook('Webhook', path, order.webhookId),
		...(order.onePerItem ? [splitOut('One Item per Order', 'body.orders')] : []),
		libreBor('Order', {
			resource: 'document',
			operation: 'order',
			nif: `={{ ${source}.nif }}`,
			year: `={{ ${source}.year }}`,
			...(order.options && { options: order.options }),
		}),
	];
	return workflow(id, name, nodes, [nodes.map((node) => node.name)]);
};

const lastYear = new Date().getFullYear() - 1;
// Seeded companies: the simulator knows them, so only the balance decides whether an order goes through.
const orderedNifs = ['B64717838', 'A86212420', 'J99216582'];

/** Distinct valid company NIFs that are not on the watch list yet. */
const newNifs = (count: number, from = 0) =>
	Array.from({ length: count }, (_, index) => makeCif('B', String(7_100_000 + from + index)));

const alertIdsEmitted = (executions: ExecutionDetails[]) =>
	executions.flatMap((execution) =>
		nodeOutputJson(execution.run, trigger).map((item) => String(item.id)),
	);

describe('LibreBOR in n8n queue mode: main, two workers, Postgres and Redis', () => {
	let cluster: QueueCluster;
	let workflows: object[];
	let rest: N8nRestClient;
	let sim: Simulator;
	const triggerCredential = { id: 'libreborQueueTrg', name: 'LibreBOR queue trigger' };
	let triggerSim: Simulator;
	// An account of its own for the executions under a rate limit: nothing else spends its turns.
	const limitedCredential = { id: 'libreborQueueLim', name: 'LibreBOR queue limited' };
	let limitedSim: Simulator;

	const signIn = async () => (rest = await N8nRestClient.signIn(await cluster.startMain()));
	const callWebhook = async (path: string, body: unknown) =>
		await callN8nWebhook(cluster.main!.baseUrl, path, body);
	const activateWithWebhook = async (workflowId: string, path: string) => {
		await rest.activateWorkflow(workflowId);
		await webhookRegistered(cluster.main!.baseUrl, path);
	};

	beforeAll(async () => {
		[sim, triggerSim, limitedSim] = await Promise.all([
			startSimulator({ seed: true }),
			startSimulator({ seed: true }),
			startSimulator({ seed: true }),
		]);
		const { tarball } = await packedLibreBorPackage();
		cluster = await startQueueCluster({
			workerCount: 2,
			// Two executions at once per worker: the four executions under one limit go two and two.
			workerConcurrency: 2,
			tarball,
			// A killed worker's job is found stalled within about 25 s rather than n8n's default of up to
			// 90 s (a lock of 60 s, checked every 30 s): the same outcome, a minute sooner.
			env: {
				QUEUE_WORKER_LOCK_DURATION: '20000',
				QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
				QUEUE_WORKER_STALLED_INTERVAL: '5000',
			},
		});
		await importCredentials(cluster.mainFolder, [
			libreBorCredential(sim),
			libreBorCredential(triggerSim, triggerCredential),
			libreBorCredential(limitedSim, limitedCredential),
		]);
		await importWorkflows(
			cluster.mainFolder,
			(workflows = [
				workflow(
					followWorkflowId,
					'Follow companies from a webhook',
					[
						webhook('Webhook', webhookPath, '6f1a4c52-9d1e-4b8e-a7e5-2c1d7a1f0b01'),
						libreBor('Follow', {
							resource: 'watchlist',
							operation: 'follow',
							nif: '={{ $json.body.nif }}',
						}),
					],
					[['Webhook', 'Follow']],
				),
				orderFromWebhook(
					orderWorkflowId,
					'Order annual accounts from a webhook',
					orderWebhookPath,
					{
						webhookId: '0c7d2e1b-5a43-4f0e-9b8a-3e6f1d2c4a02',
						onePerItem: true,
					},
				),
				orderFromWebhook(
					racingOrderWorkflowId,
					'Order one document per webhook call',
					racingOrderWebhookPath,
					{
						webhookId: '2b8f4d6a-7c1e-4a3b-9d5f-6e0a1c3b5d04',
						onePerItem: false,
						options: { maxOrdersPerHour: 1000 },
					},
				),
				orderFromWebhook(
					waitingOrderWorkflowId,
					'Order annual accounts and wait for them',
					waitingOrderWebhookPath,
					{
						webhookId: '9a3e5b7c-1d2f-4e6a-8b0c-4f7e2d3c5b03',
						onePerItem: true,
						options: { waitForCompletion: true },
					},
				),
				workflow(
					atOnceWorkflowId,
					'Follow the companies a webhook call lists',
					[
						webhook('Webhook', atOncePath, '4d2c8e1a-3b5f-4a7d-9e6c-1f0b2a4c6d05'),
						splitOut('Companies', 'body.companies'),
						libreBor(
							'Follow',
							{ resource: 'watchlist', operation: 'follow', nif: '={{ $json.nif }}' },
							{ credential: limitedCredential },
						),
					],
					[['Webhook', 'Companies', 'Follow']],
				),
				workflow(
					triggerWorkflowId,
					'New alerts, marked as read',
					[
						libreBorTrigger(
							trigger,
							{ output: 'alert', options: { markAsRead: true } },
							triggerCredential,
						),
						noOp('Received'),
					],
					[[trigger, 'Received']],
				),
			]),
		);
		await signIn();
	}, setupTimeoutMs);

	afterAll(async () => {
		await cluster?.stop();
		await Promise.all([sim?.close(), triggerSim?.close(), limitedSim?.close()]);
	}, testTimeoutMs);

	it("leaves nothing for n8n's report of what n8n 3 breaks to flag in the queue-mode set-up", async () => {
		const report = await n8n3BreakingChanges(rest);

		// Among others: manual runs already go to the workers, and binary data is in Postgres, not in memory.
		expect(report.totalWorkflows).toBe(workflows.length);
		expect(findingsAboutTheInstance(report)).toEqual([]);
	});

	it(
		'follows 100 companies from 100 concurrent webhook calls, on both workers',
		async () => {
			await activateWithWebhook(followWorkflowId, webhookPath);
			const nifs = newNifs(100);
			const answers = await Promise.all(
				nifs.map(async (nif) => await callWebhook(webhookPath, { nif })),
			);
			expect(answers.map((answer) => answer.status)).toEqual(nifs.map(() => 200));

			const executions = await rest.waitForExecutions(followWorkflowId, 100, {
				timeoutMs: 180_000,
			});
			expect(executions).toHaveLength(100);
			expect(executions.filter((execution) => execution.status === 'success')).toHaveLength(100);
			const watched = new Set(sim.state.watchlist.map((entity) => entity.nif));
			expect(nifs.filter((nif) => !watched.has(nif))).toEqual([]);

			const workerOf = cluster.workerOfExecution();
			const ranBy = executions.map((execution) => workerOf.get(execution.id));
			expect(ranBy.filter((worker) => worker === undefined)).toEqual([]);
			expect(new Set(ranBy)).toEqual(new Set(['worker-1', 'worker-2']));
		},
		testTimeoutMs,
	);

	it(
		'4 executions following 25 companies each for one account under a limit of 20 requests a second (DRF), two on each worker: every one successful, every company followed once',
		async () => {
			const executionCount = 4;
			const followsEach = 25;
			limitedSim.traffic.rateLimit = { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 };
			await activateWithWebhook(atOnceWorkflowId, atOncePath);
			const watchedBefore = limitedSim.state.watchlist.length;
			const nifs = newNifs(executionCount * followsEach, 1000);
			const answers = await Promise.all(
				Array.from({ length: executionCount }, async (_, execution) => {
					const companies = nifs
						.slice(execution * followsEach, (execution + 1) * followsEach)
						.map((nif) => ({ nif }));
					return await callWebhook(atOncePath, { companies });
				}),
			);
			expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);

			const executions = await rest.waitForExecutions(atOnceWorkflowId, executionCount, {
				timeoutMs: 180_000,
			});
			expect(
				executions.map((execution) =>
					execution.status === 'success'
						? 'success'
						: `${execution.status}: ${execution.run.data?.resultData?.error?.message}`,
				),
			).toEqual(executions.map(() => 'success'));
			const watched = limitedSim.state.watchlist.map((entity) => entity.nif);
			expect(nifs.filter((nif) => watched.filter((other) => other === nif).length !== 1)).toEqual(
				[],
			);
			expect(watched).toHaveLength(watchedBefore + nifs.length);
			// Each execution read the watch list once, then each follow was let through once: the limit
			// refused some requests, and what it refused was sent again, never what it let through.
			expect(limitedSim.traffic.admitted).toBe(executionCount * (followsEach + 1));

			const workerOf = cluster.workerOfExecution();
			const ranBy = executions.map((execution) => workerOf.get(execution.id));
			expect(ranBy.filter((worker) => worker === 'worker-1')).toHaveLength(2);
			expect(ranBy.filter((worker) => worker === 'worker-2')).toHaveLength(2);
		},
		testTimeoutMs,
	);

	it(
		'emits 500 alerts arriving in bursts on the workers across a restart of main, repeating only the unconfirmed last emission before it, and marks them all read',
		async () => {
			const polled = () =>
				new Promise<void>((resolve) =>
					triggerSim.onRequest({ method: 'GET', path: '/v2/alerts/' }, () => resolve()),
				);
			const executionsSoFar = async (count: number) =>
				await rest.waitForExecutions(triggerWorkflowId, count, {
					timeoutMs: nextPollTimeoutMs,
					mode: 'trigger',
				});
			const bursts: Alert[][] = [];

			// The first poll only notes the alerts already there.
			const firstPoll = polled();
			await rest.activateWorkflow(triggerWorkflowId);
			await firstPoll;

			bursts.push(triggerSim.state.addAlerts(170, { nif: 'B64717838' }));
			await executionsSoFar(1);

			// Main goes down while alerts keep arriving; its first poll after the restart picks them up.
			await cluster.stopMain();
			bursts.push(triggerSim.state.addAlerts(170, { nif: 'J99216582' }));
			await signIn();
			await executionsSoFar(2);

			bursts.push(triggerSim.state.addAlerts(160, { nif: 'B64717838' }));
			const executions = await executionsSoFar(3);

			const sent = bursts.flat().map((alert) => alert.id);
			expect(sent).toHaveLength(500);
			const emitted = alertIdsEmitted(executions);
			expect(new Set(emitted)).toEqual(new Set(sent));
			// Main stopped before any later emission saved that the first burst's execution exists (n8n's
			// default mode saves a poll's memory before it creates the execution), and before its next
			// poll marked that burst: main's first poll after the restart emits it again (docs/trigger.md).
			const firstBurst = new Set(bursts[0].map((alert) => alert.id));
			const repeated = emitted.filter((id, index) => emitted.indexOf(id) !== index);
			expect(repeated.filter((id) => !firstBurst.has(id))).toEqual([]);
			expect(executions.map((execution) => execution.status)).toEqual(
				executions.map(() => 'success'),
			);

			const workerOf = cluster.workerOfExecution();
			expect(executions.filter((execution) => !workerOf.has(execution.id))).toEqual([]);
			// Emitted alerts are marked read at the polls after their execution was stored, one by one and
			// for at most 30 s per poll: the last burst may take two polls.
			await expect
				.poll(
					() => triggerSim.state.unreadAlerts().filter((alert) => sent.includes(alert.id)).length,
					{
						timeout: 2 * nextPollTimeoutMs + 30_000,
						interval: 1_000,
					},
				)
				.toBe(0);
			expect(alertIdsEmitted(await executionsSoFar(3))).toEqual(emitted);
		},
		testTimeoutMs + 3 * nextPollTimeoutMs,
	);

	it(
		'reuses the orders a failed production execution placed when it is retried from the executions list',
		async () => {
			await activateWithWebhook(orderWorkflowId, orderWebhookPath);
			// Money for two orders: the third fails the execution after two were placed and paid.
			sim.state.balance = 2 * sim.state.orderPrice;
			const seeded = sim.state.documents.length;
			const placed = () =>
				sim.state.documents.slice(seeded).map((document) => `${document.nif}/${document.year}`);
			const orders = orderedNifs.map((nif) => ({ nif, year: lastYear }));
			expect((await callWebhook(orderWebhookPath, { orders })).status).toBe(200);
			const [failed] = await rest.waitForExecutions(orderWorkflowId, 1, { timeoutMs: 120_000 });
			expect(failed).toMatchObject({ mode: 'webhook', status: 'error' });
			expect(placed()).toEqual(orderedNifs.slice(0, 2).map((nif) => `${nif}/${lastYear}`));

			sim.state.balance = 10 * sim.state.orderPrice;
			await rest.request('POST', `/rest/executions/${failed.id}/retry`, { loadWorkflow: false });
			const executions = await rest.waitForExecutions(orderWorkflowId, 2, { timeoutMs: 120_000 });
			const retry = executions.find((execution) => execution.id !== failed.id)!;

			expect(retry).toMatchObject({ status: 'success', retryOf: failed.id });
			const output = nodeOutputJson(retry.run, 'Order');
			expect(output.map((item) => [item.nif, item.reused_order === true])).toEqual([
				[orderedNifs[0], true],
				[orderedNifs[1], true],
				[orderedNifs[2], false],
			]);
			// Each NIF and year ordered and paid once, across the failed execution and its retry.
			expect(placed()).toEqual(orderedNifs.map((nif) => `${nif}/${lastYear}`));
			expect(sim.state.balance).toBe(10 * sim.state.orderPrice - sim.state.orderPrice);
			const workerOf = cluster.workerOfExecution();
			expect([workerOf.has(failed.id), workerOf.has(retry.id)]).toEqual([true, true]);
		},
		testTimeoutMs,
	);

	it(
		'pays once when 10 executions on both workers order the same document at the same instant, round after round',
		async () => {
			await activateWithWebhook(racingOrderWorkflowId, racingOrderWebhookPath);
			sim.state.balance = 1000 * sim.state.orderPrice;
			const nif = orderedNifs[2];
			const rounds = 20;
			const callsPerRound = 10;
			const ordersPerRound: number[] = [];
			const outcomes: string[] = [];
			const seen = new Set<string>();
			const ranBy = new Set<string | undefined>();
			for (let round = 0; round < rounds; round++) {
				// A year no other test orders: each round is a new document.
				const year = lastYear - 2 - round;
				const calls = Array.from(
					{ length: callsPerRound },
					async () =>
						await callWebhook(racingOrderWebhookPath, {
							nif,
							year,
						}),
				);
				expect((await Promise.all(calls)).map((answer) => answer.status)).toEqual(
					calls.map(() => 200),
				);
				const executions = await rest.waitForExecutions(racingOrderWorkflowId, callsPerRound, {
					timeoutMs: 120_000,
					except: seen,
				});
				for (const execution of executions) seen.add(execution.id);
				ordersPerRound.push(
					sim.state.documents.filter((document) => document.nif === nif && document.year === year)
						.length,
				);

				const placed = executions.flatMap((execution) =>
					execution.status === 'success'
						? nodeOutputJson(execution.run, 'Order').filter((item) => item.reused_order !== true)
						: [],
				);
				for (const execution of executions) {
					const [answer] =
						execution.status === 'success' ? nodeOutputJson(execution.run, 'Order') : [];
					const message = String(execution.run.data?.resultData?.error?.message);
					if (answer?.reused_order === true && answer.document_id === placed[0]?.document_id)
						outcomes.push('reused');
					else if (answer && answer.reused_order !== true) outcomes.push('placed');
					else if (
						message.includes(`Another execution of this workflow sent the order for ${nif} ${year}`)
					)
						outcomes.push('refused');
					else outcomes.push(`${execution.status}: ${answer ? JSON.stringify(answer) : message}`);
				}
				const workerOf = cluster.workerOfExecution();
				for (const execution of executions) ranBy.add(workerOf.get(execution.id));
			}
			// Exactly one order per round, and every other execution says so: none is a silent second payment.
			expect(ordersPerRound).toEqual(ordersPerRound.map(() => 1));
			expect(outcomes.filter((outcome) => outcome === 'placed')).toHaveLength(rounds);
			expect(
				outcomes.filter((outcome) => !['placed', 'reused', 'refused'].includes(outcome)),
			).toEqual([]);
			expect(outcomes.filter((outcome) => outcome === 'refused').length).toBeGreaterThan(0);
			expect(ranBy).toEqual(new Set(['worker-1', 'worker-2']));
		},
		testTimeoutMs,
	);

	it(
		'orders no document twice when the worker running Order items (waiting for completion) is killed, nor when the orders are sent again',
		async () => {
			await activateWithWebhook(waitingOrderWorkflowId, waitingOrderWebhookPath);
			const year = lastYear - 1;
			const seeded = sim.state.documents.length;
			const ofThisYear = () => sim.state.documents.slice(seeded);
			sim.state.balance = 10 * sim.state.orderPrice;
			// Documents stay processing until the worker is gone.
			sim.state.documentProcessingMs = 600_000;
			const orders = orderedNifs.slice(0, 2).map((nif) => ({ nif, year }));
			expect((await callWebhook(waitingOrderWebhookPath, { orders })).status).toBe(200);
			await expect.poll(() => ofThisYear().length, { timeout: 60_000 }).toBeGreaterThan(0);

			const [running] = await rest.listExecutions({ workflowId: waitingOrderWorkflowId });
			const worker = cluster.workers.find((candidate) =>
				candidate.startedExecutionIds().includes(running.id),
			)!;
			expect(worker).toBeDefined();
			await worker.kill();
			for (const document of ofThisYear()) sim.state.finishDocument(document.id);
			sim.state.documentProcessingMs = 0;

			// n8n does not hand a job of a dead worker to another (its queue allows no stalled job to run
			// again): after the job's lock expires the execution fails, and says why.
			const execution = await rest.waitForExecution(running.id, { timeoutMs: 240_000 });
			expect(execution.status).toBe('error');
			expect(String(execution.run.data?.resultData?.error?.message)).toMatch(
				/failed to be processed too many times/,
			);
			// What was ordered before the worker died was ordered once: nothing ordered it again.
			const keys = () => ofThisYear().map((document) => `${document.nif}/${document.year}`);
			expect(keys()).toContain(`${orderedNifs[0]}/${year}`);
			expect(new Set(keys()).size).toBe(keys().length);

			// n8n's Retry of that execution runs no node: n8n saved none of its data, not even the webhook's.
			const placedBefore = keys();
			await rest.request('POST', `/rest/executions/${running.id}/retry`, { loadWorkflow: false });
			const [retry] = (
				await rest.waitForExecutions(waitingOrderWorkflowId, 2, { timeoutMs: 120_000 })
			).filter((candidate) => candidate.id !== running.id);
			expect(retry.run.data?.resultData?.runData ?? {}).toEqual({});
			expect(keys()).toEqual(placedBefore);

			// So the user sends the same orders again: a new execution, on either worker. The order the
			// dead worker sent is refused, not paid twice (n8n's deduplication store kept its record,
			// written before it was sent), and the execution says where to find it.
			expect((await callWebhook(waitingOrderWebhookPath, { orders })).status).toBe(200);
			const [again] = (
				await rest.waitForExecutions(waitingOrderWorkflowId, 3, { timeoutMs: 120_000 })
			).filter((candidate) => candidate.id !== running.id && candidate.id !== retry.id);
			expect(again.status).toBe('error');
			expect(String(again.run.data?.resultData?.error?.message)).toMatch(
				new RegExp(
					`Another execution of this workflow sent the order for ${orderedNifs[0]} ${year}, and its outcome is not known here`,
				),
			);
			expect(keys()).toEqual(placedBefore);
		},
		testTimeoutMs,
	);

	it('logs no error or warning about the package on main or the workers', async () => {
		const entries = [
			...(cluster.main?.logEntries() ?? []),
			...cluster.workers.flatMap((worker) => readLogFile(worker.process.logFile)),
		];
		// The order execution that runs out of balance fails on purpose, and so do the killed worker's job
		// (whose stack mentions the folder n8n is installed in, ~/.cache/n8n-nodes-librebor) and the
		// execution that sends its orders again. After the restart of main, n8n refuses the trigger's
		// last batch emitted again under its deduplication key, and says so.
		const expected =
			/LibreBOR refused access to this feature \(402\)|job stalled more than maxStalledCount|Another execution of this workflow sent the order|^Scheduled execution skipped: duplicate deduplication key$/;
		expect(
			problemsMentioning(entries, /librebor/i).filter((entry) => !expected.test(entry.message)),
		).toEqual([]);
	});
});
