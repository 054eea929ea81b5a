// The LibreBOR node against n8n's HTTP Request node under each shape of rate limit servers use
// (tools/simulator/rateLimits), in a real n8n, through a proxy that adds a round trip to every
// packet: first runs at several job sizes, and the same job run twice (what the first run learned
// of the limit, kept in the workflow's static data, is what the second starts from).
import { nodeError, nodeOutputItems } from '../../../tools/n8n/executionRun.mts';
import { importCredentials, importWorkflows } from '../../../tools/n8n/n8nCli.mts';
import type { N8nUserFolder } from '../../../tools/n8n/n8nUserFolder.mts';
import type { RateLimit } from '../../../tools/simulator/index.mts';
import { startDelayProxy } from '../delayProxy.mts';
import { companyNifs } from '../nifs.mts';
import type { BenchSimulator } from '../simulatorControl.mts';
import {
	benchCredentials,
	followWorkflow,
	MEASURED_NODE,
	type FollowVia,
} from './benchWorkflows.mts';
import { executeTimed } from './timedExecution.mts';

export interface BenchShape {
	/** As the tables name it. */
	name: string;
	limit: RateLimit;
}

/** One limit per shape, all about 20 requests a second (tastypie's whole seconds make it 20 in one to two). */
export const BENCH_SHAPES: BenchShape[] = [
	{ name: 'token bucket, 20/s', limit: { shape: 'token-bucket', requests: 20, windowMs: 1000 } },
	{
		name: 'sliding log with Retry-After (DRF), 20/s',
		limit: { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 },
	},
	{
		name: 'sliding log without Retry-After (tastypie), 20/s',
		limit: { shape: 'sliding-log-tastypie', requests: 20, windowMs: 1000 },
	},
	{
		name: 'fixed window (Kong), 20/s',
		limit: { shape: 'fixed-window', requests: 20, windowMs: 1000 },
	},
	{
		name: 'leaky bucket, 503 (nginx), 20 r/s',
		limit: { shape: 'leaky-bucket-nginx', requests: 20, windowMs: 1000 },
	},
];

/** Windows of a minute and of 20 s, at sizes a user of such a limit would run. */
export const LONG_WINDOW_CASES: Array<BenchShape & { items: number }> = [
	{
		name: 'sliding log with Retry-After (DRF), 60/min',
		limit: { shape: 'sliding-log-drf', requests: 60, windowMs: 60_000 },
		items: 150,
	},
	{
		name: 'sliding log without Retry-After (tastypie), 30 per 20 s',
		limit: { shape: 'sliding-log-tastypie', requests: 30, windowMs: 20_000 },
		items: 90,
	},
];

export const RATE_LIMIT_SIZES = [50, 250, 1000];
/** The round trip the proxy adds under a limit; a second run without limit pays 60 ms. */
export const LIMITED_ROUND_TRIP_MS = 20;
export const UNLIMITED_ROUND_TRIP_MS = 60;
/** Items of the job run twice. */
export const SECOND_RUN_ITEMS = { limited: 100, unlimited: 50 };

export interface RateLimitRun {
	shape: string;
	/** Undefined: no limit. */
	limit?: RateLimit;
	via: FollowVia;
	/** 'first': the workflow's first run; 'second': the same workflow again, right after. */
	run: 'first' | 'second';
	roundTripMs: number;
	items: number;
	/** n8n's own time for the measured node; the whole command when the execution failed. */
	ms: number;
	/** The least time the limit itself needs for the items, from the run's first request (0: no limit). */
	floorMs: number;
	failedItems: number;
	requests: number;
	throttled: number;
}

export interface RateLimitResult {
	firstRuns: RateLimitRun[];
	secondRuns: RateLimitRun[];
}

interface Condition {
	shape: string;
	limit?: RateLimit;
	items: number;
	roundTripMs: number;
}

/**
 * Workflow ids as n8n makes them: 16 letters and digits, one per workflow measured (the number is
 * padded on its left: padded on its right, workflow 1 and workflow 10 would share an id).
 */
const workflowIds = new Map<string, string>();
function workflowIdOf(key: string): string {
	let id = workflowIds.get(key);
	if (!id) {
		id = `ratelimit${String(workflowIds.size).padStart(7, '0')}`;
		workflowIds.set(key, id);
	}
	return id;
}

type Traffic = { throttled: number; admitted: number };

async function measure(
	folder: N8nUserFolder,
	sim: BenchSimulator,
	workflowId: string,
	items: number,
): Promise<{ ms: number; failedItems: number }> {
	const watched = async () =>
		((await sim.process.control('GET', 'state')) as { watchlistSize: number }).watchlistSize;
	const before = await watched();
	const started = performance.now();
	try {
		const execution = await executeTimed(folder, workflowId);
		const output = nodeOutputItems(execution.run, MEASURED_NODE);
		const failedItems = nodeError(execution.run, MEASURED_NODE)
			? items - output.filter((item) => !item.error).length
			: output.filter((item) => item.error).length;
		const ms =
			execution.run.data.resultData.runData[MEASURED_NODE]?.[0]?.executionTime ?? execution.wallMs;
		return { ms, failedItems };
	} catch {
		// A failed execution (the HTTP Request node at its first 429): count what the simulator followed.
		return { ms: performance.now() - started, failedItems: items - ((await watched()) - before) };
	}
}

/** The floor of the run just measured: from its first request to the API. */
async function floorOf(sim: BenchSimulator, condition: Condition): Promise<number> {
	return condition.limit ? await sim.floorMs(condition.items) : 0;
}

async function runUnder(
	folder: N8nUserFolder,
	sim: BenchSimulator,
	condition: Condition,
	via: FollowVia,
	run: RateLimitRun['run'],
	workflowId: string,
): Promise<RateLimitRun> {
	if (run === 'first') await sim.reset();
	await sim.process.control('DELETE', 'traffic');
	await sim.process.control('POST', 'settings', { rateLimit: condition.limit ?? null });
	const { ms, failedItems } = await measure(folder, sim, workflowId, condition.items);
	const traffic = (await sim.process.control('GET', 'traffic')) as Traffic;
	const measured: RateLimitRun = {
		shape: condition.shape,
		limit: condition.limit,
		via,
		run,
		roundTripMs: condition.roundTripMs,
		items: condition.items,
		ms,
		floorMs: await floorOf(sim, condition),
		failedItems,
		requests: traffic.admitted + traffic.throttled,
		throttled: traffic.throttled,
	};
	console.log(
		`  ${condition.shape}, ${via}, ${condition.items} items, ${run} run: ${Math.round(ms)} ms, floor ${Math.round(measured.floorMs)} ms, ${failedItems} failed, ${measured.throttled}/${measured.requests} refused`,
	);
	return measured;
}

/** The runs of each condition, one condition after the other. */
async function inTurn(
	conditions: Condition[],
	runsOf: (condition: Condition) => Promise<RateLimitRun[]>,
): Promise<RateLimitRun[]> {
	const runs: RateLimitRun[] = [];
	for (const condition of conditions) runs.push(...(await runsOf(condition)));
	return runs;
}

/** Each first run has a workflow of its own, so that no earlier run left it anything learned. */
const firstRuns = (folder: N8nUserFolder, sim: BenchSimulator, conditions: Condition[]) =>
	inTurn(conditions, async (condition) => {
		const runs: RateLimitRun[] = [];
		for (const via of ['LibreBOR node', 'HTTP Request node'] as FollowVia[]) {
			const id = workflowIdOf(`first ${condition.shape} ${condition.items} ${via}`);
			runs.push(await runUnder(folder, sim, condition, via, 'first', id));
		}
		return runs;
	});

/** The LibreBOR node's workflow run twice in a row (the second follows other companies), and the HTTP Request node's once. */
const secondRuns = (folder: N8nUserFolder, sim: BenchSimulator, conditions: Condition[]) =>
	inTurn(conditions, async (condition) => {
		const id = workflowIdOf(`twice ${condition.shape} ${condition.items}`);
		const first = await runUnder(folder, sim, condition, 'LibreBOR node', 'first', id);
		await sim.process.control('POST', 'reset');
		const second = await runUnder(folder, sim, condition, 'LibreBOR node', 'second', id);
		const http = workflowIdOf(`twice ${condition.shape} ${condition.items} HTTP Request node`);
		return [
			first,
			second,
			await runUnder(folder, sim, condition, 'HTTP Request node', 'first', http),
		];
	});

function workflowsFor(conditions: Condition[], access: { baseUrl: string; credentials: object }) {
	return conditions.flatMap((condition) => {
		const nifs = companyNifs(condition.items);
		const keys = [
			[`first ${condition.shape} ${condition.items} LibreBOR node`, 'LibreBOR node'],
			[`first ${condition.shape} ${condition.items} HTTP Request node`, 'HTTP Request node'],
			[`twice ${condition.shape} ${condition.items}`, 'LibreBOR node'],
			[`twice ${condition.shape} ${condition.items} HTTP Request node`, 'HTTP Request node'],
		] as const;
		return keys.map(([key, via]) => followWorkflow(workflowIdOf(key), via, access as never, nifs));
	});
}

/**
 * First runs of every shape at every size, the long windows at their own sizes, then every shape's
 * job run twice and a job without limit at a 60 ms round trip run twice. One run of each.
 */
export async function rateLimitRuns(
	folder: N8nUserFolder,
	sim: BenchSimulator,
	options: { sizes: number[]; longWindows: boolean },
): Promise<RateLimitResult> {
	const proxy = await startDelayProxy(sim.baseUrl, LIMITED_ROUND_TRIP_MS);
	const access = { baseUrl: proxy.baseUrl, credentials: sim.credentials };
	const first: Condition[] = [
		...BENCH_SHAPES.flatMap(({ name, limit }) =>
			options.sizes.map((items) => ({
				shape: name,
				limit,
				items,
				roundTripMs: LIMITED_ROUND_TRIP_MS,
			})),
		),
		...(options.longWindows
			? LONG_WINDOW_CASES.map(({ name, limit, items }) => ({
					shape: name,
					limit,
					items,
					roundTripMs: LIMITED_ROUND_TRIP_MS,
				}))
			: []),
	];
	const twice: Condition[] = [
		...BENCH_SHAPES.map(({ name, limit }) => ({
			shape: name,
			limit,
			items: SECOND_RUN_ITEMS.limited,
			roundTripMs: LIMITED_ROUND_TRIP_MS,
		})),
		{
			shape: 'no limit',
			items: SECOND_RUN_ITEMS.unlimited,
			roundTripMs: UNLIMITED_ROUND_TRIP_MS,
		},
	];
	await importCredentials(folder, benchCredentials(access));
	await importWorkflows(folder, workflowsFor([...first, ...twice], access));
	try {
		const firstRunsMeasured = await firstRuns(folder, sim, first);
		const secondRunsMeasured: RateLimitRun[] = [];
		for (const condition of twice) {
			proxy.roundTripMs = condition.roundTripMs;
			secondRunsMeasured.push(...(await secondRuns(folder, sim, [condition])));
		}
		return { firstRuns: firstRunsMeasured, secondRuns: secondRunsMeasured };
	} finally {
		await sim.process.control('POST', 'settings', { rateLimit: null });
		await proxy.close();
	}
}
