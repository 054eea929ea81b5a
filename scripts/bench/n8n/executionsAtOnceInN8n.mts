// Four executions of one account at once in a real n8n 2.41.1, as a team runs them: a published
// workflow whose webhook is called four times at once, each call following 150 other companies
// with the same LibreBOR credential. Once in one regular n8n process, once in queue mode (main, two
// workers taking two executions each, Postgres and Redis), against the simulator in a process of
// its own through the delay proxy. Under DRF's 20/s and 200/min (as section 2e), and under an hourly
// quota smaller than the job, which must still stop every execution within its time budget, saying
// how many of its items were done.
import { randomUUID } from 'node:crypto';

import { installCommunityPackage } from '../../../tools/n8n/communityPackage.mts';
import { libreBor, libreBorCredential } from '../../../tools/n8n/libreBorN8n.mts';
import { importCredentials, importWorkflows } from '../../../tools/n8n/n8nCli.mts';
import { N8nRestClient, type ExecutionDetails } from '../../../tools/n8n/n8nRestClient.mts';
import { startN8n } from '../../../tools/n8n/n8nServer.mts';
import { createN8nUserFolder, type N8nUserFolder } from '../../../tools/n8n/n8nUserFolder.mts';
import { startQueueCluster } from '../../../tools/n8n/queue/queueCluster.mts';
import { callWebhook, webhook, webhookRegistered } from '../../../tools/n8n/webhooks.mts';
import { splitOut, workflow } from '../../../tools/n8n/workflowBuilder.mts';
import type { RateLimit } from '../../../tools/simulator/index.mts';
import { startDelayProxy, type DelayProxy } from '../delayProxy.mts';
import type { ExecutionsAtOnceRun } from '../engine/executionsAtOnce.measure.mts';
import { AT_ONCE_CASES, EXECUTIONS, FOLLOWS_EACH } from '../executionsAtOnceCases.mts';
import { companyNifs } from '../nifs.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { LIMITED_ROUND_TRIP_MS, type BenchShape } from './rateLimitRuns.mts';

export type N8nSetUp = 'one main process' | 'queue mode, 2 workers';

/** The limits measured in n8n: DRF's 20/s and its 200/min, as in section 2e. */
export const IN_N8N_CASES: BenchShape[] = AT_ONCE_CASES.filter(
	({ limit }) => limit.shape === 'sliding-log-drf',
);

/** Follows the hourly quota allows the four executions together, after each read the watch list once. */
export const QUOTA_FOLLOWS = 300;
const HOUR_MS = 3_600_000;
const SPENT_QUOTA: BenchShape = {
	name: `sliding log with Retry-After (DRF), ${EXECUTIONS + QUOTA_FOLLOWS}/hour`,
	limit: { shape: 'sliding-log-drf', requests: EXECUTIONS + QUOTA_FOLLOWS, windowMs: HOUR_MS },
};
/** The node's default Time Budget. */
export const TIME_BUDGET_MS = 300_000;

export interface ExecutionsAtOnceInN8nRun extends ExecutionsAtOnceRun {
	setUp: N8nSetUp;
	/** How many of the executions each process ran, e.g. "2 + 2" (one number in one process). */
	ranOn: string;
	/** The message of each failed execution. */
	errors: string[];
}

export interface SpentQuotaRun {
	setUp: N8nSetUp;
	shape: string;
	quotaFollows: number;
	executions: number;
	itemsEach: number;
	followed: number;
	/** Executions that did all their items. */
	successful: number;
	/** Failed executions whose error said "N of M items were done". */
	saidHowMany: number;
	/** The sum of those N, and of the successful executions' items. */
	doneSaid: number;
	/** From the start of the first execution to the end of the last. */
	ms: number;
	budgetMs: number;
	errors: string[];
}

export interface ExecutionsAtOnceInN8nResult {
	runs: ExecutionsAtOnceInN8nRun[];
	spentQuota: SpentQuotaRun[];
}

/** A case of its own in n8n: its workflow, webhook and credential, through a proxy of its own (a new account). */
interface PreparedCase {
	shape: BenchShape;
	workflowId: string;
	path: string;
	proxy: DelayProxy;
	credential: object;
	workflow: object;
}

const REQUESTS_EACH = FOLLOWS_EACH + 1;

async function prepareCases(sim: BenchSimulator, shapes: BenchShape[]): Promise<PreparedCase[]> {
	return await Promise.all(
		shapes.map(async (shape, index) => {
			const proxy = await startDelayProxy(sim.baseUrl, LIMITED_ROUND_TRIP_MS);
			const ref = { id: `benchAtOnce${index}`, name: `LibreBOR at once ${index}` };
			const workflowId = `benchAtOnceWf${String(index).padStart(3, '0')}`;
			const path = `at-once-${index}`;
			const nodes = [
				webhook('Webhook', path, randomUUID()),
				splitOut('Companies', 'body.companies'),
				libreBor(
					'Follow',
					{ resource: 'watchlist', operation: 'follow', nif: '={{ $json.nif }}' },
					{ credential: ref },
				),
			];
			return {
				shape,
				workflowId,
				path,
				proxy,
				credential: libreBorCredential(
					{ baseUrl: proxy.baseUrl, credentials: sim.credentials },
					ref,
				),
				workflow: workflow(workflowId, `Follow at once: ${shape.name}`, nodes, [
					nodes.map((node) => node.name),
				]),
			};
		}),
	);
}

const watched = async (sim: BenchSimulator) =>
	((await sim.process.control('GET', 'state')) as { watchlistSize: number }).watchlistSize;

const errorOf = (execution: ExecutionDetails) =>
	execution.status === 'success'
		? undefined
		: String(execution.run.data?.resultData?.error?.message ?? execution.status);

/** From the start of the first execution to the end of the last, as n8n recorded them. */
function togetherMs(executions: ExecutionDetails[]): number {
	const starts = executions.map((execution) => Date.parse(String(execution.startedAt)));
	const ends = executions.map((execution) => Date.parse(String(execution.stoppedAt)));
	return Math.max(...ends) - Math.min(...starts);
}

interface Measured {
	executions: ExecutionDetails[];
	followed: number;
	requests: number;
	throttled: number;
	ms: number;
}

/** Publishes the case's workflow, calls its webhook four times at once and waits for the four executions. */
async function runCase(
	n8n: { rest: N8nRestClient; baseUrl: string },
	sim: BenchSimulator,
	prepared: PreparedCase,
	limit: RateLimit,
): Promise<Measured> {
	await sim.reset();
	await sim.process.control('DELETE', 'traffic');
	await sim.process.control('POST', 'settings', { rateLimit: limit });
	await n8n.rest.activateWorkflow(prepared.workflowId);
	await webhookRegistered(n8n.baseUrl, prepared.path);
	const before = await watched(sim);
	const nifs = companyNifs(EXECUTIONS * FOLLOWS_EACH);
	const answers = await Promise.all(
		Array.from({ length: EXECUTIONS }, async (_, execution) => {
			const companies = nifs
				.slice(execution * FOLLOWS_EACH, (execution + 1) * FOLLOWS_EACH)
				.map((nif) => ({ nif }));
			return await callWebhook(n8n.baseUrl, prepared.path, { companies });
		}),
	);
	if (answers.some((answer) => answer.status !== 200))
		throw new Error(`A webhook call was refused: ${answers.map((answer) => answer.status)}`);
	const executions = await n8n.rest.waitForExecutions(prepared.workflowId, EXECUTIONS, {
		timeoutMs: 900_000,
		intervalMs: 1_000,
	});
	await n8n.rest.deactivateWorkflow(prepared.workflowId);
	const traffic = (await sim.process.control('GET', 'traffic')) as {
		throttled: number;
		admitted: number;
	};
	return {
		executions,
		followed: (await watched(sim)) - before,
		requests: traffic.admitted + traffic.throttled,
		throttled: traffic.throttled,
		ms: togetherMs(executions),
	};
}

/** How many of the executions each process ran, from the workers' logs (one process: all). */
type RanOn = (executions: ExecutionDetails[]) => string;

async function measureLimit(
	n8n: { rest: N8nRestClient; baseUrl: string; setUp: N8nSetUp; ranOn: RanOn },
	sim: BenchSimulator,
	prepared: PreparedCase,
): Promise<ExecutionsAtOnceInN8nRun> {
	const measured = await runCase(n8n, sim, prepared, prepared.shape.limit);
	const errors = measured.executions.flatMap((execution) => errorOf(execution) ?? []);
	const run: ExecutionsAtOnceInN8nRun = {
		setUp: n8n.setUp,
		shape: prepared.shape.name,
		executions: EXECUTIONS,
		itemsEach: FOLLOWS_EACH,
		ms: measured.ms,
		floorMs: await sim.floorMs(EXECUTIONS * REQUESTS_EACH),
		failedExecutions: errors.length,
		// Without Continue On Fail a failed execution's items are not done.
		failedItems: EXECUTIONS * FOLLOWS_EACH - measured.followed,
		followed: measured.followed,
		requests: measured.requests,
		throttled: measured.throttled,
		ranOn: n8n.ranOn(measured.executions),
		errors,
	};
	console.log(`  ${n8n.setUp}: ${JSON.stringify(run)}`);
	return run;
}

const ITEMS_DONE = /(\d+) of (\d+) items were done/;

async function measureSpentQuota(
	n8n: { rest: N8nRestClient; baseUrl: string; setUp: N8nSetUp },
	sim: BenchSimulator,
	prepared: PreparedCase,
): Promise<SpentQuotaRun> {
	const measured = await runCase(n8n, sim, prepared, prepared.shape.limit);
	const errors = measured.executions.flatMap((execution) => errorOf(execution) ?? []);
	const said = errors.flatMap((message) => {
		const match = ITEMS_DONE.exec(message);
		return match && Number(match[2]) === FOLLOWS_EACH ? [Number(match[1])] : [];
	});
	const successful = EXECUTIONS - errors.length;
	const run: SpentQuotaRun = {
		setUp: n8n.setUp,
		shape: prepared.shape.name,
		quotaFollows: QUOTA_FOLLOWS,
		executions: EXECUTIONS,
		itemsEach: FOLLOWS_EACH,
		followed: measured.followed,
		successful,
		saidHowMany: said.length,
		doneSaid: said.reduce((sum, done) => sum + done, successful * FOLLOWS_EACH),
		ms: measured.ms,
		budgetMs: TIME_BUDGET_MS,
		errors,
	};
	console.log(`  ${n8n.setUp}: ${JSON.stringify(run)}`);
	return run;
}

async function measureCases(
	n8n: { rest: N8nRestClient; baseUrl: string; setUp: N8nSetUp; ranOn: RanOn },
	sim: BenchSimulator,
	cases: PreparedCase[],
): Promise<ExecutionsAtOnceInN8nResult> {
	const result: ExecutionsAtOnceInN8nResult = { runs: [], spentQuota: [] };
	for (const prepared of cases) {
		if (prepared.shape === SPENT_QUOTA)
			result.spentQuota.push(await measureSpentQuota(n8n, sim, prepared));
		else result.runs.push(await measureLimit(n8n, sim, prepared));
	}
	return result;
}

/** The cases' credentials and workflows, into the n8n user folder `folder`. */
async function importCases(folder: N8nUserFolder, cases: PreparedCase[]) {
	await importCredentials(
		folder,
		cases.map((prepared) => prepared.credential),
	);
	await importWorkflows(
		folder,
		cases.map((prepared) => prepared.workflow),
	);
}

async function inOneMainProcess(
	tarball: string,
	sim: BenchSimulator,
	cases: PreparedCase[],
): Promise<ExecutionsAtOnceInN8nResult> {
	const folder: N8nUserFolder = await createN8nUserFolder();
	try {
		await installCommunityPackage(folder, tarball);
		await importCases(folder, cases);
		const server = await startN8n(folder);
		try {
			const rest = await N8nRestClient.signIn(server);
			const ranOn: RanOn = (executions) => String(executions.length);
			return await measureCases(
				{ rest, baseUrl: server.baseUrl, setUp: 'one main process', ranOn },
				sim,
				cases,
			);
		} finally {
			await server.stop();
		}
	} finally {
		await folder.remove();
	}
}

async function inQueueMode(
	tarball: string,
	sim: BenchSimulator,
	cases: PreparedCase[],
): Promise<ExecutionsAtOnceInN8nResult> {
	// Two executions at once per worker: the four go two and two, as a team's queue mode runs them.
	const cluster = await startQueueCluster({ workerCount: 2, workerConcurrency: 2, tarball });
	try {
		await importCases(cluster.mainFolder, cases);
		const main = await cluster.startMain();
		const rest = await N8nRestClient.signIn(main);
		const ranOn: RanOn = (executions) => {
			const workerOf = cluster.workerOfExecution();
			return cluster.workers
				.map(
					(worker) =>
						executions.filter((execution) => workerOf.get(execution.id) === worker.name).length,
				)
				.join(' + ');
		};
		return await measureCases(
			{ rest, baseUrl: main.baseUrl, setUp: 'queue mode, 2 workers', ranOn },
			sim,
			cases,
		);
	} finally {
		await cluster.stop();
	}
}

/**
 * Both set-ups, each in an n8n of its own with the package installed from its tarball; `quick`:
 * DRF's 20/s and the spent quota only.
 */
export async function measureExecutionsAtOnceInN8n(
	tarball: string,
	options: { quick: boolean; setUps?: N8nSetUp[] },
): Promise<ExecutionsAtOnceInN8nResult> {
	const shapes = [...(options.quick ? IN_N8N_CASES.slice(0, 1) : IN_N8N_CASES), SPENT_QUOTA];
	const setUps = options.setUps ?? ['one main process', 'queue mode, 2 workers'];
	const sim = await BenchSimulator.start();
	const result: ExecutionsAtOnceInN8nResult = { runs: [], spentQuota: [] };
	try {
		for (const setUp of setUps) {
			// New proxies, so new accounts: nothing the other set-up learned carries over.
			const cases = await prepareCases(sim, shapes);
			try {
				const measured = await (setUp === 'one main process' ? inOneMainProcess : inQueueMode)(
					tarball,
					sim,
					cases,
				);
				result.runs.push(...measured.runs);
				result.spentQuota.push(...measured.spentQuota);
			} finally {
				await Promise.all(cases.map(async (prepared) => await prepared.proxy.close()));
			}
		}
		return result;
	} finally {
		await sim.process.control('POST', 'settings', { rateLimit: null });
		await sim.close();
	}
}
