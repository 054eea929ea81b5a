import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { INodeParameters } from 'n8n-workflow';

import type { ActionResult } from './runAction.mts';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

// JavaScript objects and Buffers: what a node holds when it keeps a file in memory. The rest of
// `external` is native memory such as the TLS contexts each HTTPS request builds.
const liveBytes = () => {
	const usage = process.memoryUsage();
	return usage.heapUsed + usage.arrayBuffers;
};

/**
 * The peak growth of live memory (heap and buffers, after garbage collection) while `work`
 * runs. Collecting before each sample keeps garbage that is merely waiting for the
 * collector from looking like memory the work holds on to.
 */
export async function peakLiveMemoryGrowth(
	work: () => Promise<unknown>,
	sampleEveryMs = 50,
): Promise<number> {
	collectGarbage();
	const baseline = liveBytes();
	let peak = baseline;
	const sample = () => {
		collectGarbage();
		peak = Math.max(peak, liveBytes());
	};
	const sampler = setInterval(sample, sampleEveryMs);
	try {
		await work();
	} finally {
		clearInterval(sampler);
	}
	sample();
	return peak - baseline;
}

/**
 * Orders a seeded company's accounts through `run` and downloads them once, so that measuring the
 * download it returns starts warm.
 */
export async function warmDocumentDownload(
	run: (parameters: INodeParameters) => Promise<ActionResult>,
): Promise<() => Promise<ActionResult>> {
	const ordered = await run({
		resource: 'document',
		operation: 'order',
		company: { __rl: true, mode: 'nif', value: 'B64717838' },
		year: 2023,
	});
	const documentId = String(ordered.items[0].json.document_id);
	const download = async () =>
		await run({
			resource: 'document',
			operation: 'download',
			documentId,
			binaryPropertyName: 'data',
			// What is measured is memory: a machine busy enough to stretch the transfer past the
			// default 30 s must not turn it into a timeout.
			options: { timeout: 300 },
		});
	await download();
	return download;
}
