import { statSync } from 'node:fs';

import type { INodeParameters } from 'n8n-workflow';
import { it } from 'vitest';

import { binaryFilePath, runAction } from '../../../tools/engine/index.mts';
import { peakLiveMemoryGrowth, warmDocumentDownload } from '../../../tools/engine/memory.mts';
import { DOWNLOAD_BYTES_PER_SECOND, DOWNLOAD_FILE_BYTES } from '../downloadConditions.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { median, timeMs } from '../stats.mts';
import { builtNodes, quickRun, reportResult } from './builtPackage.mts';

export interface DownloadMemoryResult {
	fileBytes: number;
	bytesPerSecond: number;
	downloads: number;
	/** Peak growth of live memory during one download: the median and the largest of the downloads. */
	medianGrowthBytes: number;
	largestGrowthBytes: number;
	medianDurationMs: number;
}

/** A single sample can catch freed buffers the collector has not released yet, so several are taken. */
const DOWNLOADS = quickRun ? 2 : 5;

it('live memory of the LibreBOR node while it downloads a large document', async () => {
	const { LibreBor } = builtNodes();
	const sim = await BenchSimulator.start({ documentSizeBytes: 64 * 1024 });
	const run = async (parameters: INodeParameters) => {
		const result = await runAction({
			nodeType: new LibreBor(),
			parameters,
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
		reportResult({
			fileBytes: DOWNLOAD_FILE_BYTES,
			bytesPerSecond: DOWNLOAD_BYTES_PER_SECOND,
			downloads: DOWNLOADS,
			medianGrowthBytes: median(growths),
			largestGrowthBytes: Math.max(...growths),
			medianDurationMs: median(durations),
		} satisfies DownloadMemoryResult);
	} finally {
		await sim.close();
	}
});
