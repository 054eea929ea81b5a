// `npm run bench`: measures the package against a plain client, against n8n's HTTP Request node in a
// real n8n, and on its own (trigger polls, a large download, cold load), then writes BENCHMARKS.md.
//   node scripts/bench/run.mts [--quick] [--from results.json]
// Needs NODE_EXTRA_CA_CERTS=tools/simulator/tls/ca.pem (the simulator's CA) and Node 24; installs n8n
// on first use (scripts/n8n/install.sh). --quick runs fewer items and repetitions, to try the script;
// --from renders BENCHMARKS.md again from the raw results a run saved, without measuring.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { repoRoot } from '../../tools/repoPaths.mts';
import { measureColdLoad } from './coldLoad.mts';
import type { DownloadMemoryResult } from './engine/downloadMemory.measure.mts';
import type { ExecutionsAtOnceRun } from './engine/executionsAtOnce.measure.mts';
import type { MarkingResult } from './engine/marking.measure.mts';
import type { RegistryLookupRun } from './engine/registryLookups.measure.mts';
import type { ThroughputResult } from './engine/throughput.measure.mts';
import type { TriggerResult } from './engine/trigger.measure.mts';
import { machineInfo, sampleLoad } from './machine.mts';
import { measureExecutionsAtOnceInN8n } from './n8n/executionsAtOnceInN8n.mts';
import { JOB_SIZES } from './n8n/networkRuns.mts';
import { measureOrdersInRealN8n, ORDER_COUNTS } from './n8n/orderRuns.mts';
import { measureInRealN8n } from './n8n/realN8n.mts';
import { measureRateLimits } from './n8n/rateLimitsInN8n.mts';
import { RATE_LIMIT_SIZES } from './n8n/rateLimitRuns.mts';
import { buildAndPack } from './packageBuild.mts';
import { renderReport, type BenchResults } from './report.mts';
import { runInEngine } from './runInEngine.mts';

const quick = process.argv.includes('--quick');
const fromIndex = process.argv.indexOf('--from');
const savedResults = fromIndex > 0 ? process.argv[fromIndex + 1] : undefined;
const RAW_RESULTS = path.join(os.tmpdir(), 'librebor-bench-results.json');
const engineEnv: Record<string, string> = quick ? { BENCH_QUICK: '1' } : {};

function step(message: string) {
	console.log(`\n> ${message}`);
}

/** A measurement in the engine, tried once more when it fails: the machine is shared, and a busy neighbour can time a download out. */
async function measureInEngine<T>(name: string): Promise<T> {
	try {
		return await runInEngine<T>(name, engineEnv);
	} catch (error) {
		console.log(
			`  ${name} failed, trying once more: ${(error as Error).message.split('\n').find((line) => line.includes('Error')) ?? ''}`,
		);
		return await runInEngine<T>(name, engineEnv);
	}
}

async function main() {
	if (!process.env.NODE_EXTRA_CA_CERTS)
		throw new Error('Set NODE_EXTRA_CA_CERTS=tools/simulator/tls/ca.pem (npm run bench does)');
	const started = performance.now();
	const machine = machineInfo();
	const stopLoadSampling = sampleLoad();
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'librebor-bench-'));
	try {
		step('Building and packing the package');
		const packed = await buildAndPack(scratch);

		step('Cold load of the built package');
		const coldLoad = measureColdLoad(quick ? 3 : 11);

		step('Node overhead through n8n-core against a plain undici client (several minutes)');
		const throughput = await measureInEngine<ThroughputResult[]>('throughput');

		step('Trigger polls with 100 to 10,000 unread alerts');
		const trigger = await measureInEngine<TriggerResult[]>('trigger');

		step('Trigger marking a burst of 1,000 emitted alerts at a 60 ms round trip');
		const marking = await measureInEngine<MarkingResult>('marking');

		step('Memory while downloading a 50 MiB document, and 50 documents of 5 MB at once');
		const downloadMemory = await measureInEngine<DownloadMemoryResult>('downloadMemory');

		step(
			'LibreBOR node against the HTTP Request node in a real n8n: loopback, distance (about 15 minutes)',
		);
		const realN8n = await measureInRealN8n(packed.tarball, {
			items: quick ? 100 : 1000,
			repetitions: quick ? 1 : 3,
			jobSizes: quick ? [50, 100] : JOB_SIZES,
		});

		step(
			'Orders in a real n8n: 1, 8 and 50 orders, with and without Download, against the HTTP Request node (about 10 minutes)',
		);
		const orders = await measureOrdersInRealN8n(packed.tarball, {
			counts: ORDER_COUNTS,
			repetitions: quick ? 1 : 3,
		});

		step(
			'LibreBOR node against the HTTP Request node under each shape of rate limit, and the same job twice (about 15 minutes)',
		);
		const rateLimits = await measureRateLimits(packed.tarball, {
			sizes: quick ? [50] : RATE_LIMIT_SIZES,
			longWindows: !quick,
		});

		step(
			'Four executions of one account at once under each shape of rate limit, in n8n-core (about 5 minutes)',
		);
		const executionsAtOnce = await measureInEngine<ExecutionsAtOnceRun[]>('executionsAtOnce');

		step(
			'Four executions of one account at once in a real n8n: one main process, then queue mode with 2 workers (about 15 minutes)',
		);
		const executionsAtOnceInN8n = await measureExecutionsAtOnceInN8n(packed.tarball, { quick });

		step(
			'Registry look-ups (Company > Get by NIF, Watch List > Get Many with Company Details) under each shape of rate limit, in n8n-core (about 3 minutes)',
		);
		const registryLookups = await measureInEngine<RegistryLookupRun[]>('registryLookups');

		const results: BenchResults = {
			machine,
			quick,
			durationS: (performance.now() - started) / 1000,
			loadDuringRun: stopLoadSampling(),
			throughput,
			realN8n,
			rateLimits,
			executionsAtOnce,
			executionsAtOnceInN8n,
			registryLookups,
			trigger,
			marking,
			downloadMemory,
			orders,
			coldLoad,
			packed,
		};
		writeFileSync(RAW_RESULTS, JSON.stringify(results));
		writeReport(results);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

function writeReport(results: BenchResults) {
	const report = renderReport(results);
	writeFileSync(path.join(repoRoot, 'BENCHMARKS.md'), report);
	console.log(`\n${report}`);
	console.log(
		`Written to BENCHMARKS.md (measured in ${Math.round(results.durationS)} s; raw results in ${RAW_RESULTS})`,
	);
}

const run = savedResults
	? async () => writeReport(JSON.parse(readFileSync(savedResults, 'utf8')) as BenchResults)
	: main;
run().catch((error: unknown) => {
	console.error(error instanceof Error ? error.stack : error);
	process.exit(1);
});
