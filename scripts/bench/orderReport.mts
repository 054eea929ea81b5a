import { table, type Goal } from './markdown.mts';
import type { ConcurrentDownloadMemory } from './engine/downloadMemory.measure.mts';
import {
	DEFAULT_OPTIONS_READY_AFTER_MS,
	type OrderRun,
	type OrdersResult,
} from './n8n/orderRuns.mts';
import type { OrderVia } from './n8n/orderWorkflows.mts';
import { median } from './stats.mts';

const MB = 1024 * 1024;
const seconds = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);
const times = (value: number) => `${value.toFixed(2)}x`;

/** The median time of a job over its repetitions. */
function medianMs(runs: OrderRun[], via: OrderVia, orders: number, download: boolean): number {
	return median(
		runs
			.filter(
				(run) =>
					run.via === via &&
					run.orders === orders &&
					run.download === download &&
					run.readyAfterMs !== DEFAULT_OPTIONS_READY_AFTER_MS,
			)
			.map((run) => run.ms),
	);
}

function orderGoals(result: OrdersResult, goals: Goal[]) {
	const wait = result.readyAfterMs;
	const { runs } = result;
	for (const [orders, factor] of [
		[8, 2],
		[50, 3],
	]) {
		const took = medianMs(runs, 'LibreBOR node', orders, true);
		if (Number.isNaN(took)) continue;
		goals.push({
			goal: `${orders} orders with Download, each ready ${wait / 1000} s after its order, Poll Interval 1 s: within ${factor}x one document's wait`,
			measured: `${seconds(took)} (${times(took / wait)})`,
			met: took <= factor * wait,
		});
	}
	const node = medianMs(runs, 'LibreBOR node', 8, false);
	const http = medianMs(runs, 'HTTP Request node', 8, false);
	if (!Number.isNaN(node - http))
		goals.push({
			goal: '8 orders without waiting: within 1.5 s of the HTTP Request node posting the same 8',
			measured: `${seconds(node)} against ${seconds(http)} (+${seconds(node - http)})`,
			met: node - http <= 1_500,
		});
	const byDefault = median(
		runs.filter((run) => run.readyAfterMs === DEFAULT_OPTIONS_READY_AFTER_MS).map((run) => run.ms),
	);
	goals.push({
		goal: `Default options with Download: a document ready ${DEFAULT_OPTIONS_READY_AFTER_MS / 1000} s after its order is output within 20 s`,
		measured: seconds(byDefault),
		met: byDefault <= 20_000,
	});
	return byDefault;
}

function memoryPart(memory: ConcurrentDownloadMemory | undefined, goals: Goal[]): string {
	if (!memory) return '';
	const growth = memory.growthBytes / MB;
	const largest = memory.largestGrowthBytes / MB;
	goals.push({
		goal: `${memory.documents} downloads of ${memory.fileBytes / MB} MiB at once: live memory grows by less than 60 MB`,
		measured: `${growth.toFixed(1)} MiB, at most ${largest.toFixed(1)} MiB`,
		met: memory.growthBytes < 60e6,
	});
	return `

In n8n-core's engine (harness, simulator in its own process, binary data in n8n's default \`filesystem\`
mode), Document > Download of ${memory.documents} documents of ${memory.fileBytes / MB} MiB at once, each sent at
${(memory.bytesPerSecond / MB).toFixed(1)} MiB/s: the peak growth of live memory (heap and buffers, after a full
garbage collection, sampled every 50 ms) was **${growth.toFixed(1)} MiB** (median of ${memory.runs} runs; at most
${largest.toFixed(1)} MiB) for ${((memory.documents * memory.fileBytes) / MB).toFixed(0)} MiB downloaded in
${seconds(memory.durationMs)}. Every file streams to disk, and at most Parallel Requests (50) transfers run at once.`;
}

/**
 * The orders section of BENCHMARKS.md: ordering a list of companies with the LibreBOR node and with
 * the HTTP Request node, without waiting and with Download, and the memory of many downloads at once.
 */
export function ordersSection(
	result: OrdersResult | undefined,
	memory: ConcurrentDownloadMemory | undefined,
	goals: Goal[],
): string {
	if (!result) return '';
	const wait = result.readyAfterMs;
	const jobRuns = result.runs.filter((run) => run.readyAfterMs === wait);
	const counts = [...new Set(jobRuns.map((run) => run.orders))].sort((a, b) => a - b);
	const byDefault = orderGoals(result, goals);
	const rows = counts.map((orders) => {
		const node = medianMs(result.runs, 'LibreBOR node', orders, false);
		const http = medianMs(result.runs, 'HTTP Request node', orders, false);
		const nodeWaiting = medianMs(result.runs, 'LibreBOR node', orders, true);
		const httpWaiting = medianMs(result.runs, 'HTTP Request node', orders, true);
		return [
			String(orders),
			seconds(node),
			seconds(http),
			`+${seconds(node - http)}`,
			`${seconds(nodeWaiting)} (${times(nodeWaiting / wait)})`,
			`${seconds(httpWaiting)} (${times(httpWaiting / wait)})`,
		];
	});
	const repetitions = jobRuns.filter(
		(run) => run.via === 'LibreBOR node' && run.orders === counts[0] && !run.download,
	).length;
	return `## Orders: a list of companies, in a real n8n

Document > Order of the annual accounts of new companies (version 2 of the node, Order Memory on), against
n8n's HTTP Request node posting the same orders. With Download, each document is ready ${wait / 1000} s after its
order and the LibreBOR node polls with Poll Interval 1 s; the HTTP Request node then needs a Wait of 1 s and an
IF that sends the documents still processing back to it, and an HTTP Request that downloads the files. Times run
from the start of the node that posts the orders to the end of the last node of the output (the LibreBOR node
alone, or the HTTP Request nodes with their loop); median of ${repetitions} runs each, in one \`n8n execute\` per run.
In brackets: the time over one document's wait.

${table(
	[
		'Orders',
		'LibreBOR node',
		'HTTP Request node',
		'Difference',
		'LibreBOR node, with Download',
		'HTTP Request node + Wait/IF loop, with Download',
	],
	rows,
)}

The LibreBOR node records all its orders in n8n's database before sending any, waits once for one second so
that two executions ordering the same document at the same instant cannot both pay (docs/orders.md), and then
sends them one at a time: that second and one order after another are the difference without waiting. With
Download, every document is waited for and downloaded side by side. With the default options (Poll Interval
60 s, Max Wait 30 minutes) a document ready ${DEFAULT_OPTIONS_READY_AFTER_MS / 1000} s after its order came out after ${seconds(byDefault)}:
the first check comes a second after the order and the gaps grow by a quarter up to Poll Interval.${memoryPart(memory, goals)}`;
}
