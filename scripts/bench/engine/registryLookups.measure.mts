// Registry look-ups under a rate limit of 20 requests a second, of each shape: Company > Get by
// NIF of 200 companies the registry lists, and Watch List > Get Many with Company Details over 200
// followed companies (one read of the watch list, then a look-up per company). Each job is the
// first run of a new account, through n8n-core's engine with the built package, against the
// simulator in a process of its own through the delay proxy (see limitedCase.mts).
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { it } from 'vitest';

import { runAction } from '../../../tools/engine/index.mts';
import type { RateLimit } from '../../../tools/simulator/index.mts';
import { BENCH_SHAPES, type BenchShape } from '../n8n/rateLimitRuns.mts';
import { namedCompanyNifs } from '../nifs.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { builtNodes, quickRun, reportResult } from './builtPackage.mts';
import { underLimit } from './limitedCase.mts';

export const COMPANIES = quickRun ? 20 : 200;

export type LookupJob = 'Company > Get by NIF' | 'Watch List > Get Many, Company Details';

export interface RegistryLookupRun {
	job: LookupJob;
	shape: string;
	limit: RateLimit;
	companies: number;
	ms: number;
	floorMs: number;
	requests: number;
	throttled: number;
	/** The execution's error, or the items that came out as errors. */
	failed: number;
	/** Output items that carry both `status` and `province`. */
	withStatusAndProvince: number;
}

interface Job {
	name: LookupJob;
	parameters: INodeParameters;
	input: (nifs: string[]) => Array<{ nif?: string }>;
	/** The requests the job needs at the least. */
	requests: (companies: number) => number;
}

const JOBS: Job[] = [
	{
		name: 'Company > Get by NIF',
		parameters: {
			resource: 'company',
			operation: 'get',
			company: { __rl: true, mode: 'nif', value: '={{ $json.nif }}' },
		},
		input: (nifs) => nifs.map((nif) => ({ nif })),
		requests: (companies) => companies,
	},
	{
		name: 'Watch List > Get Many, Company Details',
		parameters: {
			resource: 'watchlist',
			operation: 'getMany',
			returnAll: true,
			options: { companyDetails: true },
		},
		input: () => [{}],
		requests: (companies) => companies + 1,
	},
];

const hasStatusAndProvince = (item: INodeExecutionData) =>
	!item.error && typeof item.json.status === 'string' && typeof item.json.province === 'string';

async function measureCase(
	sim: BenchSimulator,
	shape: BenchShape,
	job: Job,
): Promise<RegistryLookupRun> {
	const { LibreBor } = builtNodes();
	const nifs = namedCompanyNifs(COMPANIES);
	await sim.reset();
	await sim.listInRegistry(nifs);
	await sim.followOnly(nifs);
	const measured = await underLimit(sim, shape.limit, job.requests(COMPANIES), (baseUrl) =>
		runAction({
			nodeType: new LibreBor(),
			parameters: job.parameters,
			credentials: { libreBorApi: { ...sim.libreBorCredential, baseUrl } },
			items: job.input(nifs),
			continueOnFail: true,
		}),
	);
	const { items, error } = measured.outcome;
	const run: RegistryLookupRun = {
		job: job.name,
		shape: shape.name,
		limit: shape.limit,
		companies: COMPANIES,
		ms: measured.ms,
		floorMs: measured.floorMs,
		requests: measured.requests,
		throttled: measured.throttled,
		failed: error ? COMPANIES : items.filter((item) => item.error).length,
		withStatusAndProvince: items.filter(hasStatusAndProvince).length,
	};
	console.log(JSON.stringify(run));
	return run;
}

it(`registry look-ups of ${COMPANIES} companies under each shape of limit`, async () => {
	const sim = await BenchSimulator.start();
	try {
		const runs: RegistryLookupRun[] = [];
		// Quick: DRF's sliding log only.
		for (const shape of quickRun ? BENCH_SHAPES.slice(1, 2) : BENCH_SHAPES)
			for (const job of JOBS) runs.push(await measureCase(sim, shape, job));
		reportResult(runs);
	} finally {
		await sim.process.control('POST', 'settings', { rateLimit: null });
		await sim.close();
	}
});
