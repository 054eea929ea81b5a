// Items that wait for documents wait side by side: a list of orders takes as long as its slowest
// document, not the sum of them all. Output stays in input order; a failed wait fails only its item
// under Continue On Fail and stops the run otherwise; a cancel stops every wait at once.
import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { binaryFilePath, readBinary } from '../../tools/engine/index.mts';
import { pdfLikeBytes } from '../../tools/simulator/index.mts';
import {
	jsonOf,
	pairedItemsOf,
	placedDocument,
	runLibreBor,
	useSimulator,
} from '../support/libreBor.mts';
import { companies, orderEach } from './orderRuns.mts';

const sim = useSimulator({ documentSizeBytes: 2048 });
const statusChecks = { method: 'GET', path: /^\/v2\/documents\/[^/]+\/$/ } as const;

/** Document > Download of each item's document, checked every second while it is processing. */
const download = (options: IDataObject = {}) => ({
	resource: 'document',
	operation: 'download',
	documentId: '={{ $json.documentId }}',
	binaryPropertyName: 'data',
	options: { pollInterval: 1, ...options },
});

/** Each company's document takes its own time to prepare. */
function preparedIn(times: Record<string, number>) {
	sim().state.documentProcessingMs = (document) => times[document.nif];
}

/** The NIFs of the documents downloaded, in the order their downloads reached the file host. */
function downloadOrder(): string[] {
	const byToken = (path: string) => sim().state.documentByToken(path.split('/').pop() ?? '');
	return sim()
		.requests.filter((request) => request.origin === 'download')
		.map((request) => byToken(request.path)?.nif ?? '?');
}

/** Waits until no request has arrived for a while: whatever the node still had going has landed. */
async function untilQuiet(quietMs = 400): Promise<void> {
	for (let seen = -1; seen !== sim().requests.length; ) {
		seen = sim().requests.length;
		await sleep(quietMs);
	}
}

describe('Order with Download: every item waits side by side', () => {
	it('downloads each document as soon as it is ready, whatever the input order, and outputs them in input order', async () => {
		const items = companies(3);
		const [slow, fast, middle] = items.map(({ nif }) => nif);
		preparedIn({ [slow]: 3_000, [fast]: 300, [middle]: 1_500 });
		const result = await runLibreBor(sim(), orderEach({ download: true, pollInterval: 1 }), {
			items,
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((answer) => answer.nif)).toEqual([slow, fast, middle]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items.map((item) => item.binary?.data.fileName)).toEqual(
			[slow, fast, middle].map((nif) => `cuentas-anuales-${nif}-2023.pdf`),
		);
		// One at a time, the first item's document would come first.
		expect(downloadOrder()).toEqual([fast, middle, slow]);
		// Orders go out one at a time, in input order, each once.
		expect(sim().state.documents.map((document) => document.nif)).toEqual([slow, fast, middle]);
	});

	it("with Continue On Fail, fails only the item whose document has no file, and the others' downloads go on", async () => {
		const items = companies(3);
		const broken = items[1].nif;
		preparedIn(Object.fromEntries(items.map(({ nif }) => [nif, 600])));
		sim().state.downloadLinkOverride = (document) =>
			document.nif === broken ? null : document.download_link;
		const result = await runLibreBor(sim(), orderEach({ download: true, pollInterval: 1 }), {
			items,
			continueOnFail: true,
		});
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const brokenId = sim().state.documents[1].id;
		expect(result.items[1].error?.message).toBe(
			`Document ${brokenId} finished with status "completed" and no download link`,
		);
		// Not also told to get the file later with Download, as a placed order's other failures are.
		expect(result.items[1].error?.description).toMatch(/^LibreBOR gave no file for it\./);
		expect(result.items.map((item) => item.binary?.data !== undefined)).toEqual([
			true,
			false,
			true,
		]);
		expect(sim().state.ordersReceived).toBe(3);
	});

	it('without Continue On Fail, stops every other wait as soon as one item fails, and sends nothing after', async () => {
		const items = companies(2);
		const [waiting, broken] = items.map(({ nif }) => nif);
		preparedIn({ [waiting]: 120_000, [broken]: 300 });
		sim().state.downloadLinkOverride = (document) =>
			document.nif === broken ? null : document.download_link;
		const started = Date.now();
		const result = await runLibreBor(sim(), orderEach({ download: true, pollInterval: 1 }), {
			items,
		});
		expect(result.error?.message).toMatch(/no download link/);
		expect(result.error?.context.itemIndex).toBe(1);
		// Not two minutes for the other document.
		expect(Date.now() - started).toBeLessThan(30_000);
		const requests = sim().requests.length;
		await untilQuiet();
		expect(sim().requests.length).toBe(requests);
	});

	it('stops every wait at once when the execution is cancelled, and sends nothing after', async () => {
		const items = companies(3);
		preparedIn(Object.fromEntries(items.map(({ nif }) => [nif, 120_000])));
		// Cancelled once each of the three documents has been checked.
		let checked = 0;
		const allChecked = new Promise<void>((resolve) =>
			sim().onRequest(statusChecks, () => (++checked === items.length ? resolve() : undefined), 3),
		);
		const started = Date.now();
		const result = await runLibreBor(sim(), orderEach({ download: true, pollInterval: 1 }), {
			items,
			continueOnFail: true,
			cancelWhen: allChecked,
		});
		expect(result.run.status).toBe('canceled');
		expect(Date.now() - started).toBeLessThan(30_000);
		const requests = sim().requests.length;
		await untilQuiet();
		expect(sim().requests.length).toBe(requests);
		expect(sim().state.ordersReceived).toBe(3);
	});
});

describe('Waiting with the default Poll Interval, on the real clock', () => {
	it('waits through checks while the document is processing, and outputs it soon after it is ready', async () => {
		sim().state.documentProcessingMs = 2_500;
		const started = Date.now();
		const result = await runLibreBor(sim(), orderEach({ waitForCompletion: true }), {
			items: companies(1),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].status).toBe('completed');
		// Checks at 1, 2.25 and 3.8 s after the order (their exact times: documentPolling.test.mts,
		// on a virtual clock): at least one saw it processing, and the output came seconds after the
		// order, not the minute of Poll Interval.
		expect(sim().requestsTo('GET', statusChecks.path).length).toBeGreaterThanOrEqual(2);
		expect(Date.now() - started).toBeLessThan(30_000);
	});
});

describe('Download of documents still processing', () => {
	/** Documents ordered now, as input items of Download. */
	function ordered(count: number) {
		sim().state.balance = count * sim().state.orderPrice;
		return companies(count).map(({ nif }) => ({ documentId: placedDocument(sim(), nif).id }));
	}

	it('waits for more documents than Parallel Requests side by side: a wait holds no request', async () => {
		sim().state.documentProcessingMs = 1_500;
		const items = ordered(6);
		const result = await runLibreBor(sim(), download({ concurrency: 2 }), { items });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.document_id)).toEqual(
			items.map(({ documentId }) => documentId),
		);
		// Every document was checked before the first was downloaded: no item waited for another's download.
		const firstDownload = sim().requests.findIndex((request) => request.origin === 'download');
		const checkedBefore = new Set(
			sim()
				.requests.slice(0, firstDownload)
				.filter((request) => request.method === 'GET' && request.origin === 'api')
				.map((request) => request.path),
		);
		expect(checkedBefore.size).toBe(items.length);
	});

	it('waits out a 429 on a status check late in a long wait, past the Time Budget counted from the start', async () => {
		sim().state.documentProcessingMs = 2_500;
		const items = ordered(1);
		// The second check is answered 429 with Retry-After: 1 s, after more than the Time Budget.
		sim().onRequest(statusChecks, () => {
			sim().injectFault({ ...statusChecks, status: 429, retryAfter: 1 });
		});
		const result = await runLibreBor(sim(), download({ budgetMinutes: 0.02 }), { items });
		expect(result.error).toBeUndefined();
		expect(await readBinary(result.items[0])).toEqual(
			await pdfLikeBytes(sim().state.documentSizeBytes),
		);
		expect(sim().requestsTo('GET', `/v2/documents/${items[0].documentId}/`).length).toBeGreaterThan(
			2,
		);
	});

	it('sends no check for the items still queued behind Parallel Requests once one check is refused', async () => {
		const items = ordered(60);
		sim().injectFault({ ...statusChecks, status: 401 });
		const result = await runLibreBor(sim(), download({ concurrency: 4 }), { items });
		expect(result.error?.message).toMatch(/401/);
		await untilQuiet();
		// About the 4 checks in flight when it failed (a place freed meanwhile may start one more),
		// not one for each of the 60 items.
		expect(sim().requestsTo('GET', statusChecks.path).length).toBeLessThanOrEqual(8);
	});

	it('streams many documents to disk at once, never more transfers than Parallel Requests', async () => {
		sim().state.documentSizeBytes = 256 * 1024;
		sim().state.downloadBytesPerSecond = 1024 * 1024;
		const items = ordered(12);
		const result = await runLibreBor(sim(), download({ concurrency: 3 }), { items });
		expect(result.error).toBeUndefined();
		// Each file went to n8n's binary data on disk, whole.
		expect(result.items.map((item) => statSync(binaryFilePath(item)).size)).toEqual(
			items.map(() => 256 * 1024),
		);
		// What is buffered at once is bounded by the transfers at once, checks included.
		expect(sim().traffic.maxInFlight).toBeLessThanOrEqual(3);
	});
});

describe('The Time Budget of items that wait for documents', () => {
	const waits = { pollInterval: 1, maxWait: 30, budgetMinutes: 0.5 };
	const ways = {
		Order: () => ({
			parameters: orderEach({ waitForCompletion: true, ...waits }),
			items: companies(1),
		}),
		Download: () => ({
			parameters: download(waits),
			items: [{ documentId: placedDocument(sim()).id }],
		}),
	};

	it.each(Object.keys(ways) as Array<keyof typeof ways>)(
		'%s: counts it from the end of the longest Max Wait, and stops at once at a 429 asking for longer',
		async (way) => {
			sim().state.documentProcessingMs = 120_000;
			const { parameters, items } = ways[way]();
			sim().injectFault({ ...statusChecks, status: 429, retryAfter: 61 });
			const result = await runLibreBor(sim(), parameters, { items });
			// 30 s of Max Wait and 0.5 min of Time Budget: 1 min in all, less than the 61 s asked for.
			expect(result.error?.message).toMatch(/the run's time budget of 1 min is spent/);
			expect(sim().requestsTo('GET', statusChecks.path)).toHaveLength(1);
		},
	);
});
