import { installCommunityPackage } from '../../../tools/n8n/communityPackage.mts';
import { nodeOutputItems, type ExecutionRun } from '../../../tools/n8n/executionRun.mts';
import { importCredentials, importWorkflows } from '../../../tools/n8n/n8nCli.mts';
import { createN8nUserFolder, type N8nUserFolder } from '../../../tools/n8n/n8nUserFolder.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { benchCredentials, MEASURED_NODE } from './benchWorkflows.mts';
import { FILE_NODE, orderWorkflow, type OrderJob, type OrderVia } from './orderWorkflows.mts';
import { executeTimed } from './timedExecution.mts';

export const ORDER_COUNTS = [1, 8, 50];
/** Each document is ready this long after its order ("a few seconds"). */
export const READY_AFTER_MS = 4_000;
/** With the node's default options (Poll Interval 60 s), a document ready this long after its order. */
export const DEFAULT_OPTIONS_READY_AFTER_MS = 10_000;
const ORDER_VIAS: OrderVia[] = ['LibreBOR node', 'HTTP Request node'];
/** The documents' size: small, so that the figures are about ordering and waiting. */
const DOCUMENT_BYTES = 64 * 1024;

export interface OrderRun extends OrderJob {
	via: OrderVia;
	/** After its order, when each document was ready. */
	readyAfterMs: number;
	/**
	 * From the start of the node that posts the orders to the end of the last one that made the
	 * output: the LibreBOR node alone, or the HTTP Request nodes with their Wait and IF loop.
	 */
	ms: number;
}

export interface OrdersResult {
	readyAfterMs: number;
	runs: OrderRun[];
}

/** Workflow ids as n8n makes them: 16 letters and digits. */
const workflowId = (via: OrderVia, job: OrderJob) =>
	`order${via === 'LibreBOR node' ? 'lb' : 'hr'}${job.download ? 'dl' : 'no'}${job.pollIntervalS ?? 'd'}x${job.orders}`
		.padEnd(16, '0')
		.slice(0, 16);

/** From the first run of the ordering node to the end of the last run of the node that gives the output. */
function spanMs(run: ExecutionRun, via: OrderVia, job: OrderJob): number {
	const { runData } = run.data.resultData;
	const started = runData[MEASURED_NODE][0].startTime ?? NaN;
	const last = via === 'HTTP Request node' && job.download ? FILE_NODE : MEASURED_NODE;
	const ends = runData[last].map((task) => (task.startTime ?? NaN) + (task.executionTime ?? NaN));
	return Math.max(...ends) - started;
}

/** The items that came out with their order (and file), across every run of the output node. */
function outputsOf(run: ExecutionRun, via: OrderVia, job: OrderJob) {
	const last = via === 'HTTP Request node' && job.download ? FILE_NODE : MEASURED_NODE;
	const runs = run.data.resultData.runData[last] ?? [];
	return runs.flatMap((_, runIndex) => nodeOutputItems(run, last, { runIndex }));
}

async function runOnce(
	folder: N8nUserFolder,
	sim: BenchSimulator,
	via: OrderVia,
	job: OrderJob & { readyAfterMs: number },
): Promise<OrderRun> {
	await sim.reset();
	await sim.configure({
		documentProcessingMs: job.readyAfterMs,
		documentSizeBytes: DOCUMENT_BYTES,
		balance: 1_000_000,
	});
	const { run } = await executeTimed(folder, workflowId(via, job));
	const outputs = outputsOf(run, via, job);
	const complete = outputs.filter((item) => !item.error && (!job.download || item.binary?.data));
	if (complete.length !== job.orders)
		throw new Error(`${via}: ${complete.length} of ${job.orders} orders came out complete`);
	const ms = spanMs(run, via, job);
	console.log(
		`  ${via}, ${job.orders} orders${job.download ? `, with Download (ready after ${job.readyAfterMs / 1000} s, Poll Interval ${job.pollIntervalS ?? 'default'})` : ''}: ${Math.round(ms)} ms`,
	);
	return { via, ...job, ms };
}

/** Every job once, the two nodes alternating: without waiting, then with Download. */
function jobsOf(
	counts: number[],
): Array<{ via: OrderVia; job: OrderJob & { readyAfterMs: number } }> {
	const jobs = counts.flatMap((orders) =>
		[false, true].flatMap((download) =>
			ORDER_VIAS.map((via) => ({
				via,
				job: {
					orders,
					download,
					pollIntervalS: download ? 1 : undefined,
					readyAfterMs: READY_AFTER_MS,
				},
			})),
		),
	);
	// The defaults a user starts with: one document ready 10 s after its order.
	const byDefault = { orders: 1, download: true, readyAfterMs: DEFAULT_OPTIONS_READY_AFTER_MS };
	return [...jobs, { via: 'LibreBOR node', job: byDefault }];
}

/**
 * Orders of the annual accounts of a list of companies, in a real n8n: the LibreBOR node (version 2)
 * against the HTTP Request node posting the same orders, without waiting and with Download (for the
 * HTTP Request node, a Wait of 1 s and an IF in a loop), every document ready a few seconds after
 * its order. The credentials and the package are installed already.
 */
export async function orderRuns(
	folder: N8nUserFolder,
	sim: BenchSimulator,
	options: { counts: number[]; repetitions: number },
): Promise<OrdersResult> {
	const jobs = jobsOf(options.counts);
	await importWorkflows(
		folder,
		jobs.map(({ via, job }) => orderWorkflow(workflowId(via, job), via, sim, job)),
	);
	const runs: OrderRun[] = [];
	for (let round = 0; round < options.repetitions; round++) {
		for (const { via, job } of round % 2 === 0 ? jobs : [...jobs].reverse())
			runs.push(await runOnce(folder, sim, via, job));
	}
	return { readyAfterMs: READY_AFTER_MS, runs };
}

/**
 * The order jobs in a real n8n of their own, with the package installed from its tarball as n8n
 * installs community packages, against a simulator of their own (its settings would change the
 * other measurements').
 */
export async function measureOrdersInRealN8n(
	tarball: string,
	options: { counts: number[]; repetitions: number },
): Promise<OrdersResult> {
	const sim = await BenchSimulator.start();
	const folder = await createN8nUserFolder();
	try {
		await installCommunityPackage(folder, tarball);
		await importCredentials(folder, benchCredentials(sim));
		return await orderRuns(folder, sim, options);
	} finally {
		await folder.remove();
		await sim.close();
	}
}
