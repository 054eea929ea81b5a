import { statSync } from 'node:fs';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { binaryFilePath } from '../../tools/engine/index.mts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';

// A download is bounded in time (the Request Timeout covers the whole transfer, not only the wait
// for headers), in size (Max Download Size), and by the execution's cancel.
const sim = useSimulator({ documentSizeBytes: 256 * 1024 });
const MB = 1024 * 1024;

async function orderedDocumentId(): Promise<string> {
	const ordered = await runLibreBor(sim(), {
		resource: 'document',
		operation: 'order',
		nif: 'B64717838',
		year: 2023,
	});
	return String(jsonOf(ordered)[0].document_id);
}

const download = (documentId: string, options: IDataObject, run: { cancelAfterMs?: number } = {}) =>
	runLibreBor(
		sim(),
		{
			resource: 'document',
			operation: 'download',
			documentId,
			binaryPropertyName: 'data',
			options: { pollInterval: 1, ...options },
		},
		{ continueOnFail: true, ...run },
	);

describe('Download limits', () => {
	it('fails a transfer that sends headers and then stalls, after the request timeout', async () => {
		const documentId = await orderedDocumentId();
		sim().state.downloadBytesPerSecond = 16;
		const started = Date.now();
		const result = await download(documentId, { timeout: 1 });
		// At 16 bytes a second the file would take hours: stopping in seconds is the timeout's doing,
		// with room for a busy machine.
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].binary).toBeUndefined();
		expect(String(result.items[0].json.error)).toContain(
			`The download of document ${documentId} did not finish within the request timeout of 1 s`,
		);
		expect(result.items[0].error?.description).toMatch(
			/too slowly or stopped sending; nothing of the file was kept.*"Request Timeout \(Seconds\)"/,
		);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	}, 30_000);

	it.each([
		['a Content-Length', false, 'is 64 MB, more than the Max Download Size of 0.1 MB'],
		['a chunked body', true, 'is larger than the Max Download Size of 0.1 MB'],
	])(
		'stops a file with %s past Max Download Size early and keeps nothing of it',
		async (_kind, chunked, said) => {
			const documentId = await orderedDocumentId();
			sim().state.downloadChunked = chunked;
			sim().state.documentSizeBytes = 64 * MB;
			const result = await download(documentId, { maxDownloadMb: 0.1 });
			expect(result.items).toHaveLength(1);
			expect(result.items[0].binary).toBeUndefined();
			expect(String(result.items[0].json.error)).toContain(said);
			expect(result.items[0].error?.description).toMatch(
				/nothing of the file was kept.*raise "Max Download Size \(MB\)"/,
			);
			expect(sim().requestsTo('GET', /^\/files\//, 'download')).toHaveLength(1);
			// The transfer stopped: what left the host is what the connection's buffers held, not the file.
			expect(sim().state.downloadBytesSent).toBeLessThan(16 * MB);
			// And the node hung up, rather than leave the connection open with the file unread.
			await vi.waitFor(() => expect(sim().state.downloadsOpen).toBe(0), { timeout: 3_000 });
		},
	);

	it('downloads a chunked file below the cap whole', async () => {
		const documentId = await orderedDocumentId();
		sim().state.downloadChunked = true;
		const result = await download(documentId, { maxDownloadMb: 0.3 });
		expect(result.items[0].json.error).toBeUndefined();
		expect(
			result.items[0].binary?.data.bytes ??
				Buffer.from(result.items[0].binary?.data.data ?? '', 'base64').length,
		).toBe(256 * 1024);
	});

	it.each([
		['a Content-Length', false],
		['a chunked body', true],
	])('downloads a file with %s of exactly Max Download Size whole', async (_kind, chunked) => {
		const documentId = await orderedDocumentId();
		sim().state.downloadChunked = chunked;
		const result = await download(documentId, { maxDownloadMb: 0.25 });
		expect(result.items[0].json.error).toBeUndefined();
		expect(
			result.items[0].binary?.data.bytes ??
				Buffer.from(result.items[0].binary?.data.data ?? '', 'base64').length,
		).toBe(256 * 1024);
	});

	it("refuses an order's file above the default Max Download Size of 100 MB, and downloads it once the option is raised, without ordering again", async () => {
		sim().state.documentSizeBytes = 101 * MB;
		const workflow = { id: 'order-large-file', staticData: {} };
		const orderWith = (options: IDataObject) =>
			runLibreBor(
				sim(),
				{
					resource: 'document',
					operation: 'order',
					nif: 'B64717838',
					year: 2023,
					options: { download: true, pollInterval: 1, ...options },
				},
				{ continueOnFail: true, workflow },
			);

		const refused = await orderWith({});
		expect(refused.items[0].binary).toBeUndefined();
		expect(sim().state.documents).toHaveLength(1);
		const [{ id: documentId }] = sim().state.documents;
		expect(String(refused.items[0].json.error)).toBe(
			`The file of document ${documentId} is 101 MB, more than the Max Download Size of 100 MB`,
		);
		expect(refused.items[0].error?.description).toMatch(
			new RegExp(
				`^The order was placed: do not order again\\. Get the file later with the Download operation and document ID ${documentId}\\. The transfer was stopped and nothing of the file was kept\\. .*raise "Max Download Size \\(MB\\)"`,
			),
		);

		const downloaded = await orderWith({ maxDownloadMb: 102 });
		expect(downloaded.items[0].json).toMatchObject({
			document_id: documentId,
			status: 'completed',
		});
		expect(statSync(binaryFilePath(downloaded.items[0])).size).toBe(101 * MB);
		expect(sim().state.ordersReceived).toBe(1);
	}, 60_000);

	it('stops a slow download when the execution is cancelled, without waiting for the timeout', async () => {
		const documentId = await orderedDocumentId();
		sim().state.downloadBytesPerSecond = 16;
		const started = Date.now();
		const result = await download(documentId, { timeout: 60 }, { cancelAfterMs: 700 });
		// Well before the timeout of 60 s, with room for a busy machine.
		expect(Date.now() - started).toBeLessThan(20_000);
		expect(result.items.filter((item) => item.binary)).toEqual([]);
		expect(result.run.status).toBe('canceled');
	}, 45_000);

	it('stops waiting for a processing document when the execution is cancelled', async () => {
		sim().state.documentProcessingMs = 60_000;
		const firstCheck = new Promise<void>((resolve) =>
			sim().onRequest({ method: 'GET', path: /^\/v2\/documents\/[^/]+\/$/ }, () => resolve()),
		);
		const started = Date.now();
		const result = await runLibreBor(
			sim(),
			{
				resource: 'document',
				operation: 'order',
				nif: 'B64717838',
				year: 2023,
				options: { waitForCompletion: true, pollInterval: 5 },
			},
			// Once it waits: after the first check of the document, whatever the machine's load.
			{ continueOnFail: true, cancelWhen: firstCheck },
		);
		// Well before the document's 60 s, with room for a busy machine.
		expect(Date.now() - started).toBeLessThan(20_000);
		expect(result.run.status).toBe('canceled');
		expect(sim().state.ordersReceived).toBe(1);
	}, 45_000);
});
