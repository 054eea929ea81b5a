import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { it } from 'vitest';

import { DEFAULT_PARALLEL_REQUESTS } from '../../../nodes/LibreBor/pacing/pacer.ts';
import { runAction } from '../../../tools/engine/index.mts';
import { companyNifs } from '../nifs.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { inParallel, median, timeMs } from '../stats.mts';
import { PlainLibreBorClient } from '../undiciClient.mts';
import { builtNodes, quickRun, reportResult } from './builtPackage.mts';

const ITEMS = quickRun ? 100 : 1000;
const CONCURRENCIES = [DEFAULT_PARALLEL_REQUESTS, 1];

export type ClientName =
	| 'LibreBOR node in n8n-core'
	| 'undici'
	| 'undici, new connection per request';

export interface ThroughputResult {
	job: string;
	items: number;
	concurrency: number;
	samplesMs: Partial<Record<ClientName, number[]>>;
	medianMs: Partial<Record<ClientName, number>>;
}

interface Job {
	name: string;
	/** Before the runs of one configuration. */
	setUp(sim: BenchSimulator): Promise<IDataObject[]>;
	/** Before each run, node or plain client alike. */
	beforeRun(sim: BenchSimulator): Promise<void>;
	parameters: INodeParameters;
	/** The requests the node sends for these items, sent by the plain client. */
	sendPlain(client: PlainLibreBorClient, items: IDataObject[], concurrency: number): Promise<void>;
}

const JOBS: Job[] = [
	{
		name: 'Watch List > Follow',
		setUp: async () => companyNifs(ITEMS).map((nif) => ({ nif })),
		// The node skips companies already followed, so every run starts from the seeded watch list.
		beforeRun: async (sim) => await sim.reset(),
		parameters: {
			resource: 'watchlist',
			operation: 'follow',
			company: { __rl: true, mode: 'nif', value: '={{ $json.nif }}' },
		},
		async sendPlain(client, items, concurrency) {
			await client.send('GET', '/alerts/following/');
			await inParallel(items.length, concurrency, async (index) => {
				await client.send('POST', '/alerts/follow/', {
					nif: String(items[index].nif),
					type: 'company',
				});
			});
		},
	},
	{
		name: 'Alert > Mark as Read',
		async setUp(sim) {
			await sim.reset();
			return (await sim.addAlerts(ITEMS)).map((id) => ({ id }));
		},
		// Marking an alert that is already read answers the same, so the alerts serve every run.
		beforeRun: async () => undefined,
		parameters: { resource: 'alert', operation: 'markAsRead', alertId: '={{ $json.id }}' },
		async sendPlain(client, items, concurrency) {
			await inParallel(items.length, concurrency, async (index) => {
				await client.send('GET', `/alerts/mark_as_read/${String(items[index].id)}/`);
			});
		},
	},
];

/** Runs at 0 ms vary most: several, the median kept. */
const REPETITIONS = quickRun ? 1 : 5;

it('throughput of the LibreBOR node against a plain undici client', async () => {
	const { LibreBor } = builtNodes();
	const sim = await BenchSimulator.start();
	const clients = {
		undici: new PlainLibreBorClient({
			baseUrl: sim.baseUrl,
			credentials: sim.credentials,
			reuseConnections: true,
		}),
		fresh: new PlainLibreBorClient({
			baseUrl: sim.baseUrl,
			credentials: sim.credentials,
			reuseConnections: false,
		}),
	};

	const runNode = async (job: Job, items: IDataObject[], concurrency: number) => {
		const options = concurrency === DEFAULT_PARALLEL_REQUESTS ? {} : { concurrency };
		const result = await runAction({
			nodeType: new LibreBor(),
			parameters: { ...job.parameters, options },
			credentials: { libreBorApi: sim.libreBorCredential },
			items,
		});
		if (result.error || result.items.length !== items.length) {
			throw new Error(
				`${job.name} failed: ${result.error?.message ?? `${result.items.length} items`}`,
			);
		}
	};

	const results: ThroughputResult[] = [];
	try {
		for (const job of JOBS) {
			// Warm-up: code paths compiled, TLS context loaded, before anything is timed.
			const warmItems = (await job.setUp(sim)).slice(0, 50);
			await job.beforeRun(sim);
			await runNode(job, warmItems, DEFAULT_PARALLEL_REQUESTS);
			await job.sendPlain(clients.undici, warmItems, DEFAULT_PARALLEL_REQUESTS);
		}
		// Network distance is measured through a delaying proxy in a real n8n (networkRuns.mts), not here.
		for (const concurrency of CONCURRENCIES) {
			for (const job of JOBS) {
				const items = await job.setUp(sim);
				const runners: Array<[ClientName, () => Promise<void>]> = [
					['LibreBOR node in n8n-core', () => runNode(job, items, concurrency)],
					['undici', () => job.sendPlain(clients.undici, items, concurrency)],
					[
						'undici, new connection per request',
						() => job.sendPlain(clients.fresh, items, concurrency),
					],
				];
				const samplesMs: ThroughputResult['samplesMs'] = {};
				for (let round = 0; round < REPETITIONS; round++) {
					// Alternating the order spreads any drift of the machine evenly over the clients.
					const ordered = round % 2 === 0 ? runners : [...runners].reverse();
					for (const [name, run] of ordered) {
						await job.beforeRun(sim);
						(samplesMs[name] ??= []).push(await timeMs(run));
					}
				}
				const medianMs = Object.fromEntries(
					Object.entries(samplesMs).map(([name, samples]) => [name, median(samples)]),
				);
				results.push({ job: job.name, items: items.length, concurrency, samplesMs, medianMs });
				console.log(`${job.name}, concurrency ${concurrency}: ${JSON.stringify(medianMs)}`);
			}
		}
	} finally {
		await clients.undici.close();
		await clients.fresh.close();
		await sim.close();
	}
	reportResult(results);
});
