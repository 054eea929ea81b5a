import { nodeError, nodeOutputItems } from '../../../tools/n8n/executionRun.mts';
import { importCredentials, importWorkflows } from '../../../tools/n8n/n8nCli.mts';
import type { N8nUserFolder } from '../../../tools/n8n/n8nUserFolder.mts';
import { startDelayProxy } from '../delayProxy.mts';
import { companyNifs } from '../nifs.mts';
import type { BenchSimulator } from '../simulatorControl.mts';
import { inParallel } from '../stats.mts';
import { PlainLibreBorClient } from '../undiciClient.mts';
import {
	benchCredentials,
	followWorkflow,
	MEASURED_NODE,
	type FollowVia,
} from './benchWorkflows.mts';
import { executeTimed } from './timedExecution.mts';

export type NetworkVia =
	| 'LibreBOR node, defaults'
	| 'HTTP Request node, defaults'
	| 'plain keep-alive client, 5 connections';

export const NETWORK_VIAS: NetworkVia[] = [
	'LibreBOR node, defaults',
	'HTTP Request node, defaults',
	'plain keep-alive client, 5 connections',
];
export const JOB_SIZES = [50, 200, 1000];
export const ROUND_TRIPS_MS = [0, 60];

export interface NetworkRun {
	via: NetworkVia;
	roundTripMs: number;
	/** Set in results of earlier versions, which measured a rate limit here (now n8n/rateLimitRuns.mts). */
	rateLimitPerSecond?: number;
	items: number;
	/** n8n's own time for the measured node (for the plain client: the whole job). */
	ms: number;
	failedItems: number;
	requests: number;
	throttled: number;
	maxInFlight: number;
}

type N8nVia = Exclude<NetworkVia, 'plain keep-alive client, 5 connections'>;
/**
 * Workflow ids as n8n makes them: 16 letters and digits; one per distance too, so that each run is
 * a workflow's first, with nothing learned by an earlier run in its static data.
 */
const workflowId = (via: N8nVia, items: number, roundTripMs: number) =>
	`net${roundTripMs}${via === 'LibreBOR node, defaults' ? 'lb' : 'hr'}${items}`.padEnd(16, '0');

async function runOnce(
	folder: N8nUserFolder,
	sim: BenchSimulator,
	baseUrl: string,
	via: NetworkVia,
	nifs: string[],
	roundTripMs: number,
) {
	if (via === 'plain keep-alive client, 5 connections') {
		const client = new PlainLibreBorClient({
			baseUrl,
			credentials: sim.credentials,
			reuseConnections: true,
		});
		let failedItems = 0;
		const started = performance.now();
		await inParallel(nifs.length, 5, async (index) => {
			await client
				.send('POST', '/alerts/follow/', { nif: nifs[index], type: 'company' })
				.catch(() => failedItems++);
		});
		const ms = performance.now() - started;
		await client.close();
		return { ms, failedItems };
	}
	const watched = async () =>
		((await sim.process.control('GET', 'state')) as { watchlistSize: number }).watchlistSize;
	const before = await watched();
	const started = performance.now();
	try {
		const execution = await executeTimed(folder, workflowId(via, nifs.length, roundTripMs));
		const items = nodeOutputItems(execution.run, MEASURED_NODE);
		const failed = nodeError(execution.run, MEASURED_NODE)
			? nifs.length - items.filter((item) => !item.error).length
			: items.filter((item) => item.error).length;
		const ms =
			execution.run.data.resultData.runData[MEASURED_NODE]?.[0]?.executionTime ?? execution.wallMs;
		return { ms, failedItems: failed };
	} catch {
		// A failed execution (the HTTP Request node under a rate limit): count what the simulator followed.
		return {
			ms: performance.now() - started,
			failedItems: nifs.length - ((await watched()) - before),
		};
	}
}

/**
 * Following companies at network distance, at several job sizes: a TCP proxy delays every chunk
 * by half the round trip each way, so connection and TLS set-up pay it as on a real network.
 * One run of each. (Rate limits: n8n/rateLimitRuns.mts.)
 */
export async function networkRuns(
	folder: N8nUserFolder,
	sim: BenchSimulator,
	jobSizes = JOB_SIZES,
): Promise<NetworkRun[]> {
	const proxy = await startDelayProxy(sim.baseUrl, 0);
	const access = { baseUrl: proxy.baseUrl, credentials: sim.credentials };
	await importCredentials(folder, benchCredentials(access));
	await importWorkflows(
		folder,
		ROUND_TRIPS_MS.flatMap((roundTripMs) =>
			jobSizes.flatMap((items) =>
				(['LibreBOR node', 'HTTP Request node'] as FollowVia[]).map((node) =>
					followWorkflow(
						workflowId(`${node}, defaults`, items, roundTripMs),
						node,
						access,
						companyNifs(items),
					),
				),
			),
		),
	);
	const runs: NetworkRun[] = [];
	try {
		for (const roundTripMs of ROUND_TRIPS_MS) {
			proxy.roundTripMs = roundTripMs;
			for (const items of jobSizes) {
				for (const via of NETWORK_VIAS) {
					await sim.reset();
					const { ms, failedItems } = await runOnce(
						folder,
						sim,
						proxy.baseUrl,
						via,
						companyNifs(items),
						roundTripMs,
					);
					const traffic = (await sim.process.control('GET', 'traffic')) as {
						throttled: number;
						admitted: number;
						maxInFlight: number;
					};
					const run = {
						via,
						roundTripMs,
						items,
						ms,
						failedItems,
						requests: traffic.throttled + traffic.admitted,
						throttled: traffic.throttled,
						maxInFlight: traffic.maxInFlight,
					};
					runs.push(run);
					console.log(
						`  ${via}, ${items} items, ${roundTripMs} ms: ${Math.round(ms)} ms, ${failedItems} failed, ${run.maxInFlight} in flight at most`,
					);
				}
			}
		}
	} finally {
		await proxy.close();
	}
	return runs;
}
