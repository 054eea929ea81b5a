import { statSync } from 'node:fs';
import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { binaryFilePath, runAction } from '../../tools/engine/index.mts';
import { expectNoSecret } from '../support/libreBor.mts';
import { peakLiveMemoryGrowth, warmDocumentDownload } from '../../tools/engine/memory.mts';
import {
	startSimulatorProcess,
	type SimulatorProcess,
} from '../../tools/simulator/simulatorProcess.mts';

const FILE_SIZE = 20 * 1024 * 1024;
// A good real network (160 Mbit/s). Unthrottled, loopback keeps up to ~20 MB of socket and TLS
// buffers in flight whatever the file size, which would hide what the node itself holds.
const NETWORK_BYTES_PER_SECOND = 20 * 1024 * 1024;

// The simulator runs in its own process so that only the node's memory is measured.
let sim: SimulatorProcess;
beforeAll(async () => {
	sim = await startSimulatorProcess();
});
afterAll(async () => await sim?.close());

async function run(parameters: INodeParameters) {
	const result = await runAction({
		nodeType: new LibreBor(),
		parameters,
		credentials: {
			libreBorApi: { environment: 'custom', baseUrl: sim.baseUrl, ...sim.credentials },
		},
	});
	expectNoSecret(result, sim.credentials.password);
	return result;
}

describe('Document: Download of a large file', () => {
	it('streams a 20 MB document to n8n binary storage without holding it in memory', async () => {
		await sim.control('POST', 'settings', { documentSizeBytes: 64 * 1024 });
		const download = await warmDocumentDownload(run);

		await sim.control('POST', 'settings', {
			documentSizeBytes: FILE_SIZE,
			downloadBytesPerSecond: NETWORK_BYTES_PER_SECOND,
		});
		let result: Awaited<ReturnType<typeof download>> | undefined;
		const growth = await peakLiveMemoryGrowth(async () => (result = await download()));
		console.log(
			`peak live memory growth for a ${FILE_SIZE / 1024 / 1024} MB download: ${(growth / 1024 / 1024).toFixed(1)} MB`,
		);

		expect(result?.error).toBeUndefined();
		expect(statSync(binaryFilePath(result!.items[0])).size).toBe(FILE_SIZE);
		expect(growth).toBeLessThan(FILE_SIZE);
	});
});
