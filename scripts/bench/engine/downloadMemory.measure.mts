import { statSync } from 'node:fs';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { it } from 'vitest';

import { binaryFilePath, runAction, type ActionResult } from '../../../tools/engine/index.mts';
import { peakLiveMemoryGrowth, warmDocumentDownload } from '../../../tools/engine/memory.mts';
import { DOWNLOAD_BYTES_PER_SECOND, DOWNLOAD_FILE_BYTES } from '../downloadConditions.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { median, timeMs } from '../stats.mts';
import { PlainLibreBorClient } from '../undiciClient.mts';
import { builtNodes, quickRun, reportResult } from './builtPackage.mts';

/** Many documents downloaded at once by one run of Document > Download. */
export interface ConcurrentDownloadMemory {
	documents: number;
	fileBytes: number;
	/** What the file host sends each transfer. */
	bytesPerSecond: number;
	runs: number;
	/** Peak growth of live memory during a run: the median and the largest of the runs. */
	growthBytes: number;
	largestGrowthBytes: number;
	/** The median time of a run. */
	durationMs: number;
}

export interface DownloadMemoryResult {
	fileBytes: number;
	bytesPerSecond: number;
	downloads: number;
	/** Peak growth of live memory during one download: the median and the largest of the downloads. */
	medianGrowthBytes: number;
	largestGrowthBytes: number;
	medianDurationMs: number;
	/** Older results lack it. */
	concurrent?: ConcurrentDownloadMemory;
}

const CONCURRENT_DOCUMENTS = 50;
const CONCURRENT_FILE_BYTES = 5 * 1024 * 1024;
/** Each transfer's rate: 50 at once make 100 MB/s, about what TLS on loopback keeps up with on 2 shared cores. */
const CONCURRENT_BYTES_PER_SECOND = 2 * 1024 * 1024;
/** As for the single download, a sample can count buffers not released yet: the median of several runs. */
const CONCURRENT_RUNS = quickRun ? 1 : 3;

type Run = (parameters: INodeParameters, items?: IDataObject[]) => Promise<ActionResult>;

/** Documents ordered with a plain client, ready at once, as input items of Download. */
async function orderedDocuments(sim: BenchSimulator, count: number): Promise<IDataObject[]> {
	const client = new PlainLibreBorClient({
		baseUrl: sim.baseUrl,
		credentials: sim.credentials,
		reuseConnections: true,
	});
	try {
		const items: IDataObject[] = [];
		for (let index = 0; index < count; index++) {
			const form = { nif: 'B64717838', type: 'accounts', year: String(2000 + (index % 24)) };
			const { document_id } = (await client.send('POST', '/documents/order/', form)) as {
				document_id: string;
			};
			items.push({ documentId: document_id });
		}
		return items;
	} finally {
		await client.close();
	}
}

/** One run downloading every item's document: the peak growth of live memory, and how long it took. */
async function downloadAllOnce(run: Run, items: IDataObject[]) {
	const parameters = {
		resource: 'document',
		operation: 'download',
		documentId: '={{ $json.documentId }}',
		binaryPropertyName: 'data',
	};
	let result: ActionResult | undefined;
	let durationMs = NaN;
	const growthBytes = await peakLiveMemoryGrowth(async () => {
		durationMs = await timeMs(async () => (result = await run(parameters, items)));
	});
	const stored = result?.items.map((item) => statSync(binaryFilePath(item)).size) ?? [];
	if (stored.length !== items.length || stored.some((size) => size !== CONCURRENT_FILE_BYTES))
		throw new Error(`Stored ${stored.length} files of ${items.length}, sizes ${stored.join(', ')}`);
	return { growthBytes, durationMs };
}

/** Live memory while one run downloads 50 documents of 5 MB at once, into n8n's filesystem binary data. */
async function measureConcurrent(sim: BenchSimulator, run: Run): Promise<ConcurrentDownloadMemory> {
	await sim.configure({
		documentSizeBytes: CONCURRENT_FILE_BYTES,
		downloadBytesPerSecond: CONCURRENT_BYTES_PER_SECOND,
		balance: 1_000_000,
	});
	const items = await orderedDocuments(sim, CONCURRENT_DOCUMENTS);
	const runs: Array<{ growthBytes: number; durationMs: number }> = [];
	for (let round = 0; round < CONCURRENT_RUNS; round++)
		runs.push(await downloadAllOnce(run, items));
	const growths = runs.map((measured) => measured.growthBytes);
	return {
		documents: CONCURRENT_DOCUMENTS,
		fileBytes: CONCURRENT_FILE_BYTES,
		bytesPerSecond: CONCURRENT_BYTES_PER_SECOND,
		runs: CONCURRENT_RUNS,
		growthBytes: median(growths),
		largestGrowthBytes: Math.max(...growths),
		durationMs: median(runs.map((measured) => measured.durationMs)),
	};
}

/** A single sample can catch freed buffers the collector has not released yet, so several are taken. */
const DOWNLOADS = quickRun ? 2 : 5;

it('live memory of the LibreBOR node while it downloads a large document, and 50 documents at once', async () => {
	const { LibreBor } = builtNodes();
	const sim = await BenchSimulator.start({ documentSizeBytes: 64 * 1024 });
	const run = async (parameters: INodeParameters, items?: IDataObject[]) => {
		const result = await runAction({
			nodeType: new LibreBor(),
			parameters,
			items,
			credentials: { libreBorApi: sim.libreBorCredential },
		});
		if (result.error) throw new Error(result.error.message);
		return result;
	};
	try {
		const download = await warmDocumentDownload(run);

		await sim.configure({
			documentSizeBytes: DOWNLOAD_FILE_BYTES,
			downloadBytesPerSecond: DOWNLOAD_BYTES_PER_SECOND,
		});
		const growths: number[] = [];
		const durations: number[] = [];
		for (let round = 0; round < DOWNLOADS; round++) {
			let stored = 0;
			growths.push(
				await peakLiveMemoryGrowth(async () => {
					durations.push(
						await timeMs(async () => {
							const result = await download();
							stored = statSync(binaryFilePath(result.items[0])).size;
						}),
					);
				}),
			);
			if (stored !== DOWNLOAD_FILE_BYTES)
				throw new Error(`The stored file has ${stored} bytes instead of ${DOWNLOAD_FILE_BYTES}`);
		}
		const concurrent = await measureConcurrent(sim, run);
		reportResult({
			fileBytes: DOWNLOAD_FILE_BYTES,
			bytesPerSecond: DOWNLOAD_BYTES_PER_SECOND,
			downloads: DOWNLOADS,
			medianGrowthBytes: median(growths),
			largestGrowthBytes: Math.max(...growths),
			medianDurationMs: median(durations),
			concurrent,
		} satisfies DownloadMemoryResult);
	} finally {
		await sim.close();
	}
});
