import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';

import { deduplicationStore, nodeTypeNameOf, readBinary } from '../../tools/engine/index.mts';
import { jsonOf, pairedItemsOf, runLibreBor, useSimulator } from '../support/libreBor.mts';

const sim = useSimulator({ documentSizeBytes: 4096 });

const order = (extra: INodeParameters = {}, options: INodeParameters = {}): INodeParameters => ({
	resource: 'document',
	operation: 'order',
	nif: 'B64717838',
	year: 2023,
	options,
	...extra,
});

describe('Document: Order', () => {
	it('orders the annual accounts and outputs the answer with the NIF and year', async () => {
		const balance = sim().state.balance;
		const result = await runLibreBor(sim(), order({}, { sendEmail: true }));
		expect(result.error).toBeUndefined();
		const [answer] = jsonOf(result);
		expect(answer).toMatchObject({ nif: 'B64717838', year: 2023 });
		expect(answer.document_id).toEqual(expect.any(String));
		expect(sim().state.ordersReceived).toBe(1);
		expect(sim().state.balance).toBeLessThan(balance);
		expect(sim().requestsTo('POST', '/v2/documents/order/')[0].form).toEqual({
			nif: 'B64717838',
			type: 'accounts',
			year: '2023',
			send_email: 'true',
		});
	});

	it('sends one order for two items with the same NIF and year, and says the second reused it', async () => {
		const result = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }), {
			items: [{ nif: 'B64717838' }, { nif: 'b-64717838' }, { nif: 'A86212420' }],
		});
		expect(sim().state.ordersReceived).toBe(2);
		const [first, second, third] = jsonOf(result);
		expect(second.document_id).toBe(first.document_id);
		expect(second.reused_order).toBe(true);
		expect(first.reused_order).toBeUndefined();
		expect(third.document_id).not.toBe(first.document_id);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('fails an item that repeats a failed order with its own index, saying nothing was sent for it', async () => {
		sim().state.balance = 0;
		const result = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }), {
			items: [{ nif: 'B64717838' }, { nif: 'b-64717838' }, { nif: 'B-64717838' }],
			continueOnFail: true,
		});
		expect(sim().requestsTo('POST', '/v2/documents/order/')).toHaveLength(1);
		expect(result.items.map((item) => item.error?.context.itemIndex)).toEqual([0, 1, 2]);
		for (const repeated of result.items.slice(1)) {
			expect(repeated.error?.description).toMatch(
				/^Not sent again: an earlier item of this execution ordered B64717838 2023, and that order failed as above\.(?! Not sent again)/,
			);
		}
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('refuses, before sending anything, to place more orders than the cap', async () => {
		const result = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }, { maxOrders: 2 }), {
			items: [{ nif: 'B64717838' }, { nif: 'A86212420' }, { nif: 'J99216582' }],
		});
		expect(result.error?.message).toMatch(/3 document orders, more than the limit of 2/);
		expect((result.error as { description?: string }).description).toMatch(
			/Max Orders per Execution/,
		);
		expect(sim().state.ordersReceived).toBe(0);
	});

	it('sends an order whose answer is lost only once, and says it may have been placed', async () => {
		sim().injectFault({
			method: 'POST',
			path: '/v2/documents/order/',
			afterHandling: true,
			drop: true,
		});
		const result = await runLibreBor(sim(), order());
		expect(result.error?.message).toMatch(/may have been placed/);
		expect((result.error as { description?: string }).description).toMatch(/Documents section/);
		expect(sim().state.ordersReceived).toBe(1);
		expect(sim().requestsTo('POST', '/v2/documents/order/')).toHaveLength(1);
	});

	it('sends an order that times out only once', async () => {
		sim().injectFault({
			method: 'POST',
			path: '/v2/documents/order/',
			afterHandling: true,
			delayMs: 3000,
		});
		const result = await runLibreBor(sim(), order({}, { timeout: 0.5 }));
		expect(result.error?.message).toMatch(/may have been placed/);
		expect(sim().requestsTo('POST', '/v2/documents/order/')).toHaveLength(1);
	});

	it('says an order may have been placed when LibreBOR answers it with a server error', async () => {
		sim().injectFault({
			method: 'POST',
			path: '/v2/documents/order/',
			afterHandling: true,
			status: 502,
			body: '<html>Bad Gateway</html>',
			contentType: 'text/html',
		});
		const result = await runLibreBor(sim(), order());
		expect(result.error?.message).toMatch(/may have been placed/);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('names the placed document when waiting for it fails, so the user resumes instead of ordering again', async () => {
		sim().state.documentProcessingMs = 60_000;
		sim().injectFault({
			method: 'GET',
			path: /^\/v2\/documents\/[^/]+\/$/,
			status: 500,
			retryAfter: 0,
			times: Infinity,
		});
		const result = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1 }),
		);
		const documentId = sim().state.documents[0]?.id;
		expect(result.error?.message).toContain(`Document ${documentId} was ordered`);
		expect((result.error as { description?: string }).description).toMatch(
			/do not order again.*Download operation/,
		);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('is refused with a clear message when the balance is not positive', async () => {
		sim().state.balance = 0;
		const result = await runLibreBor(sim(), order());
		expect(result.error?.message).toMatch(/402/);
		expect((result.error as { description?: string }).description).toMatch(
			/positive prepaid balance/,
		);
	});

	it('waits for completion and outputs the status and download link', async () => {
		sim().state.documentProcessingMs = 1200;
		const result = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1 }),
		);
		expect(result.error).toBeUndefined();
		const [answer] = jsonOf(result);
		expect(answer.status).toBe('completed');
		expect(answer.download_link).toMatch(new RegExp(`^${sim().downloadOrigin}/`));
		expect(
			sim().requestsTo('GET', `/v2/documents/${answer.document_id}/`).length,
		).toBeGreaterThanOrEqual(2);
	});

	it('goes from NIF to PDF in one node with Download, as the document leaves processing', async () => {
		sim().state.documentProcessingMs = 1200;
		const result = await runLibreBor(
			sim(),
			order({}, { download: true, pollInterval: 1, binaryPropertyName: 'accounts' }),
		);
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.binary?.accounts).toMatchObject({
			fileName: 'cuentas-anuales-B64717838-2023.pdf',
			mimeType: 'application/pdf',
		});
		const file = await readBinary(item, 'accounts');
		expect(file.length).toBe(4096);
		expect(file.subarray(0, 8).toString()).toBe('%PDF-1.4');
		const downloads = sim().requests.filter((request) => request.origin === 'download');
		expect(downloads).toHaveLength(1);
		expect(downloads[0].headers.authorization).toBeUndefined();
	});

	it('fails past Max Wait with the document ID so the user can resume with Download', async () => {
		sim().state.documentProcessingMs = 60_000;
		const result = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1, maxWait: 2 }),
		);
		const documentId = sim().state.documents[0]?.id;
		expect(documentId).toBeTruthy();
		expect(result.error?.message).toContain(documentId);
		expect((result.error as { description?: string }).description).toContain(
			`document ID ${documentId}`,
		);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('never falls back to /order/ after a JSON 404, which may mean an unknown company', async () => {
		sim().injectFault({
			method: 'POST',
			path: '/v2/documents/order/',
			status: 404,
			body: JSON.stringify({ detail: 'Not found.' }),
			contentType: 'application/json',
		});
		const result = await runLibreBor(sim(), order());
		expect(result.error?.message).toMatch(
			/could not order the annual accounts of B64717838 for 2023 \(404\)/,
		);
		expect(sim().requestsTo('POST', '/v2/order/')).toHaveLength(0);
		expect(sim().state.ordersReceived).toBe(0);
	});

	it('falls back to the /order/ path only when the primary path is missing', async () => {
		sim().state.disablePrimaryDocumentPaths = true;
		const result = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1 }),
		);
		expect(result.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(1);
		expect(sim().requestsTo('POST', '/v2/order/')).toHaveLength(1);
	});
});

describe('Document: Order, remembered per workflow', () => {
	let workflowCounter = 0;
	const savedWorkflow = () => ({ id: `saved-workflow-${++workflowCounter}`, staticData: {} });
	/** The node as loaded by another n8n process or worker: none of this process's memory. */
	const onAnotherWorker = async () => {
		vi.resetModules();
		const { LibreBor: LibreBorElsewhere } = await import('../../nodes/LibreBor/LibreBor.node.ts');
		return new LibreBorElsewhere();
	};
	const HOUR_MS = 3_600_000;
	/** A minute into an hour of the clock: where the one-hour Order Memory windows begin. */
	const startOfAnHour = () => Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + 60_000;
	const twoCompanies = [{ nif: 'B64717838' }, { nif: 'A86212420' }];

	it('reuses an order placed by an earlier execution of the same workflow instead of paying again', async () => {
		const workflow = savedWorkflow();
		const first = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }), {
			items: twoCompanies,
			workflow,
		});
		const again = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }), {
			items: twoCompanies,
			workflow,
		});
		expect(again.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(2);
		expect(jsonOf(again)).toEqual(
			jsonOf(first).map((answer) =>
				expect.objectContaining({
					document_id: answer.document_id,
					nif: answer.nif,
					reused_order: true,
				}),
			),
		);
		expect(pairedItemsOf(again)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('does not re-order the items placed before the node failed when the execution is run again', async () => {
		const workflow = savedWorkflow();
		const items = [...twoCompanies, { nif: 'not-a-nif' }];
		const failed = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }), {
			items,
			workflow,
		});
		expect(failed.error?.message).toMatch(/NIF/);
		expect(sim().state.ordersReceived).toBe(2);
		const placed = sim().state.documents.map((document) => document.id);

		const retried = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }), {
			items: twoCompanies,
			workflow,
		});
		expect(sim().state.ordersReceived).toBe(2);
		expect(jsonOf(retried).map((answer) => [answer.document_id, answer.reused_order])).toEqual(
			placed.map((id) => [id, true]),
		);
	});

	it('carries the orders in the workflow static data, so another n8n process or worker reuses them', async () => {
		const workflow = savedWorkflow();
		await runLibreBor(sim(), order(), { workflow });
		// What n8n saves in its database at the end of the execution, loaded by a fresh process.
		const saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		const elsewhere = await runLibreBor(sim(), order(), {
			workflow: { id: workflow.id, staticData: saved },
			nodeType: await onAnotherWorker(),
		});
		expect(sim().state.ordersReceived).toBe(1);
		expect(jsonOf(elsewhere)[0]).toMatchObject({
			document_id: sim().state.documents[0].id,
			reused_order: true,
		});
	});

	it("leaves a retry's static data alone, so that n8n does not save it over the workflow's", async () => {
		// n8n starts a retry "with the original workflow" without the workflow's static data and saves
		// what the retry leaves there at its end; an Order node that wrote there would wipe, say, a
		// trigger's memory of the alerts it has emitted.
		const retry = { id: 'retried-workflow', staticData: {} };
		const result = await runLibreBor(sim(), order(), { workflow: retry, mode: 'retry' });
		expect(result.error).toBeUndefined();
		expect(retry.staticData).toEqual({});
	});

	it('sends one order when two executions of one workflow order the same document at once', async () => {
		const workflow = savedWorkflow();
		sim().injectFault({
			method: 'POST',
			path: '/v2/documents/order/',
			afterHandling: true,
			delayMs: 500,
		});
		const [one, two] = await Promise.all([
			runLibreBor(sim(), order(), { workflow }),
			runLibreBor(sim(), order(), { workflow: { id: workflow.id, staticData: {} } }),
		]);
		expect(sim().state.ordersReceived).toBe(1);
		expect(jsonOf(two)[0].document_id).toBe(jsonOf(one)[0].document_id);
	});

	it('sends one order when an execution on another worker orders the same document while the first is placing it', async () => {
		const workflow = savedWorkflow();
		sim().injectFault({
			method: 'POST',
			path: '/v2/documents/order/',
			afterHandling: true,
			delayMs: 800,
		});
		const [workerA, workerB] = [await onAnotherWorker(), await onAnotherWorker()];
		const first = runLibreBor(sim(), order(), {
			workflow: { id: workflow.id, staticData: {} },
			nodeType: workerA,
		});
		await new Promise((resolve) => setTimeout(resolve, 300));
		const second = await runLibreBor(sim(), order(), {
			workflow: { id: workflow.id, staticData: {} },
			nodeType: workerB,
			continueOnFail: true,
		});
		expect((await first).error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(1);
		expect(String(jsonOf(second)[0].error)).toContain(
			'Another execution of this workflow sent the order for B64717838 2023',
		);
	});

	it("sends one order when executions on two workers both read n8n's record before either writes it", async () => {
		const workflow = savedWorkflow();
		// First into a workflow that has no record yet (n8n inserts its row), then into one that has (n8n updates it).
		for (const year of [2022, 2023]) {
			const ordersBefore = sim().state.ordersReceived;
			const workers = [await onAnotherWorker(), await onAnotherWorker()];
			deduplicationStore.readTogether(workers.length);
			const results = await Promise.all(
				workers.map(
					async (nodeType) =>
						await runLibreBor(sim(), order({ year }), {
							workflow: { id: workflow.id, staticData: {} },
							nodeType,
							continueOnFail: true,
						}),
				),
			);
			expect(sim().state.ordersReceived - ordersBefore).toBe(1);
			const errors = results
				.map((result) => jsonOf(result)[0].error)
				.filter((error) => error !== undefined);
			expect(errors.map(String)).toEqual([
				`Another execution of this workflow sent the order for B64717838 ${year}, and its outcome is not known here`,
			]);
		}
	});

	it('sends nothing when the execution is cancelled while the order is being recorded, and blocks no later run', async () => {
		const workflow = savedWorkflow();
		const cancelled = await runLibreBor(sim(), order(), {
			workflow,
			continueOnFail: true,
			cancelAfterMs: 300,
		});
		expect(cancelled.run.status).toBe('canceled');
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		expect(sim().state.ordersReceived).toBe(0);
		// In the same process: nothing there waits for the cancelled order either.
		const placed = await runLibreBor(sim(), order(), {
			workflow: { id: workflow.id, staticData: {} },
		});
		expect(placed.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('keeps the record of an order another execution sent when one that lost the race to it is cancelled', async () => {
		const workflow = savedWorkflow();
		const nothingSaved = () => ({ id: workflow.id, staticData: {} });
		// An order of another company: n8n now updates the workflow's record instead of inserting it.
		await runLibreBor(sim(), order({ nif: 'A86212420' }), { workflow: nothingSaved() });
		const [winner, loser] = [await onAnotherWorker(), await onAnotherWorker()];
		// Both read n8n's record before either writes it back; the winner's write lands last, but the
		// loser hears of its own write a little later, so it is still waiting when the winner sends.
		const winnerCall = deduplicationStore.pauseNextRecord();
		const winning = runLibreBor(sim(), order(), { workflow: nothingSaved(), nodeType: winner });
		await winnerCall.read;
		const loserCall = deduplicationStore.pauseNextRecord();
		const winnerOrdered = new Promise<void>((resolve) =>
			sim().onRequest({ method: 'POST', path: '/v2/documents/order/' }, () => resolve()),
		);
		const losing = runLibreBor(sim(), order(), {
			workflow: nothingSaved(),
			nodeType: loser,
			cancelWhen: winnerOrdered,
		});
		await loserCall.read;
		await loserCall.write();
		await winnerCall.write();
		winnerCall.answer();
		await new Promise((resolve) => setTimeout(resolve, 300));
		loserCall.answer();
		expect((await winning).error).toBeUndefined();
		expect((await losing).error?.message).toBe(
			'The order was stopped because the execution was cancelled',
		);
		await new Promise((resolve) => setTimeout(resolve, 300));
		const later = await runLibreBor(sim(), order(), {
			workflow: nothingSaved(),
			nodeType: await onAnotherWorker(),
			continueOnFail: true,
		});
		expect(sim().state.ordersReceived).toBe(2);
		expect(String(jsonOf(later)[0].error)).toContain(
			'Another execution of this workflow sent the order for B64717838 2023',
		);
	});

	it("sends one order when a worker stalls between reading n8n's record and writing it back", async () => {
		const workflow = savedWorkflow();
		const nothingSaved = () => ({ id: workflow.id, staticData: {} });
		// An order of another company: n8n now updates the workflow's record instead of inserting it.
		await runLibreBor(sim(), order({ nif: 'A86212420' }), { workflow: nothingSaved() });
		const stalledCall = deduplicationStore.pauseNextRecord();
		const stalled = runLibreBor(sim(), order(), {
			workflow: nothingSaved(),
			nodeType: await onAnotherWorker(),
			continueOnFail: true,
		});
		await stalledCall.read;
		const prompt = await runLibreBor(sim(), order(), {
			workflow: nothingSaved(),
			nodeType: await onAnotherWorker(),
		});
		expect(prompt.error).toBeUndefined();
		// Its write, from what it read before the other execution wrote, lands over the record of the order just sent.
		await stalledCall.write();
		stalledCall.answer();
		const refused = (await stalled).items[0].error;
		expect(refused?.message).toContain('Could not record the order for B64717838 2023');
		expect(refused?.description).toMatch(/^No order was sent\./);
		expect(sim().state.ordersReceived).toBe(2);
	});

	it("sends nothing, and says so, while n8n's database keeps failing to record the order", async () => {
		const workflow = savedWorkflow();
		const failing = vi
			.spyOn(deduplicationStore, 'checkProcessedAndRecord')
			.mockRejectedValue(new Error('database is locked'));
		try {
			// Two executions at once in one process: the second waits on the first, then tries itself.
			const failed = await Promise.all(
				[1, 2].map(
					async () => await runLibreBor(sim(), order(), { workflow, continueOnFail: true }),
				),
			);
			expect(failed.map((run) => run.items[0].error?.message)).toEqual(
				Array(2).fill(
					"Could not record the order for B64717838 2023 in n8n's database before sending it",
				),
			);
			const cancelled = await runLibreBor(sim(), order(), { workflow, cancelAfterMs: 300 });
			expect(cancelled.error?.message).toBe(
				'The order was stopped because the execution was cancelled',
			);
		} finally {
			failing.mockRestore();
		}
		expect(sim().state.ordersReceived).toBe(0);
		expect((await runLibreBor(sim(), order(), { workflow })).error).toBeUndefined();
	});

	it('sends no order again after a worker died before n8n saved its orders, and says where the order is', async () => {
		const workflow = savedWorkflow();
		// The execution sends its order, then its worker dies: n8n saves neither its static data nor
		// its execution data, and the worker's memory is gone.
		await runLibreBor(sim(), order(), { workflow: { id: workflow.id, staticData: {} } });
		const retried = await runLibreBor(sim(), order(), {
			workflow: { id: workflow.id, staticData: {} },
			nodeType: await onAnotherWorker(),
			mode: 'retry',
			continueOnFail: true,
		});
		expect(sim().state.ordersReceived).toBe(1);
		expect(String(jsonOf(retried)[0].error)).toContain(
			'Another execution of this workflow sent the order for B64717838 2023',
		);
		expect(retried.items[0].error?.description).toMatch(/Documents, and use Document > Download/);
	});

	it('sends no order again after a worker died, also when an older order of that company is still remembered', async () => {
		const workflow = savedWorkflow();
		const oneHour = { orderMemoryHours: 1 };
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			const start = startOfAnHour();
			vi.setSystemTime(start);
			await runLibreBor(sim(), order({}, oneHour), { workflow });
			const savedAfterFirst = JSON.stringify(workflow.staticData);
			// Past the window the order is placed again, and that execution's worker dies: n8n keeps
			// the static data of the first execution only.
			vi.setSystemTime(start + 1.2 * HOUR_MS);
			await runLibreBor(sim(), order({}, oneHour), {
				workflow: { id: workflow.id, staticData: JSON.parse(savedAfterFirst) as IDataObject },
				nodeType: await onAnotherWorker(),
			});
			expect(sim().state.ordersReceived).toBe(2);
			const again = await runLibreBor(sim(), order({}, oneHour), {
				workflow: { id: workflow.id, staticData: JSON.parse(savedAfterFirst) as IDataObject },
				nodeType: await onAnotherWorker(),
				continueOnFail: true,
			});
			expect(sim().state.ordersReceived).toBe(2);
			expect(String(jsonOf(again)[0].error)).toContain(
				'Another execution of this workflow sent the order for B64717838 2023',
			);
		} finally {
			vi.useRealTimers();
		}
	});

	it("refuses a dead worker's order for one to two windows only, however often it is tried meanwhile", async () => {
		const workflow = savedWorkflow();
		const oneHour = { orderMemoryHours: 1 };
		const nothingSaved = () => ({ id: workflow.id, staticData: {} });
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			const start = startOfAnHour();
			vi.setSystemTime(start);
			await runLibreBor(sim(), order({}, oneHour), {
				workflow: nothingSaved(),
				nodeType: await onAnotherWorker(),
			});
			vi.setSystemTime(start + 1.2 * HOUR_MS);
			const worker = await onAnotherWorker();
			for (const attempt of [1, 2]) {
				const refused = await runLibreBor(sim(), order({}, oneHour), {
					workflow: nothingSaved(),
					nodeType: worker,
					continueOnFail: true,
				});
				expect(String(jsonOf(refused)[0].error), `attempt ${attempt}`).toContain(
					'Another execution of this workflow sent the order',
				);
			}
			vi.setSystemTime(start + 2.3 * HOUR_MS);
			const placed = await runLibreBor(sim(), order({}, oneHour), {
				workflow: nothingSaved(),
				nodeType: worker,
			});
			expect(placed.error).toBeUndefined();
			expect(sim().state.ordersReceived).toBe(2);
		} finally {
			vi.useRealTimers();
		}
	});

	it('still reuses an order after a run with Order Memory 0 in the same workflow', async () => {
		const workflow = savedWorkflow();
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			const start = startOfAnHour();
			vi.setSystemTime(start);
			const first = await runLibreBor(sim(), order(), { workflow });
			vi.setSystemTime(start + 2 * HOUR_MS);
			await runLibreBor(sim(), order({ nif: 'A86212420' }, { orderMemoryHours: 0 }), { workflow });
			vi.setSystemTime(start + 3 * HOUR_MS);
			const again = await runLibreBor(sim(), order(), { workflow });
			expect(again.error).toBeUndefined();
			expect(jsonOf(again)[0]).toMatchObject({
				document_id: jsonOf(first)[0].document_id,
				reused_order: true,
			});
			expect(sim().state.ordersReceived).toBe(2);
		} finally {
			vi.useRealTimers();
		}
	});

	it('sends none of the orders of two workers that died while ordering at the same moment', async () => {
		const workflow = savedWorkflow();
		const [workerA, workerB] = [await onAnotherWorker(), await onAnotherWorker()];
		await Promise.all([
			runLibreBor(sim(), order(), {
				workflow: { id: workflow.id, staticData: {} },
				nodeType: workerA,
			}),
			runLibreBor(sim(), order({ nif: 'A86212420' }), {
				workflow: { id: workflow.id, staticData: {} },
				nodeType: workerB,
			}),
		]);
		expect(sim().state.ordersReceived).toBe(2);
		const again = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }), {
			items: twoCompanies,
			workflow: { id: workflow.id, staticData: {} },
			nodeType: await onAnotherWorker(),
			continueOnFail: true,
		});
		expect(sim().state.ordersReceived).toBe(2);
		expect(jsonOf(again).map((answer) => String(answer.error))).toEqual(
			twoCompanies.map(() =>
				expect.stringContaining('Another execution of this workflow sent the order'),
			),
		);
	});

	it("lets an execution waiting on a refused order try it itself, not take it for a dead worker's", async () => {
		const workflow = savedWorkflow();
		sim().state.balance = 0;
		sim().injectFault({
			method: 'POST',
			path: '/v2/documents/order/',
			afterHandling: true,
			delayMs: 300,
		});
		const [one, two] = await Promise.all([
			runLibreBor(sim(), order(), { workflow, continueOnFail: true }),
			runLibreBor(sim(), order(), {
				workflow: { id: workflow.id, staticData: {} },
				continueOnFail: true,
			}),
		]);
		expect(String(jsonOf(one)[0].error)).toMatch(/402/);
		expect(String(jsonOf(two)[0].error)).toMatch(/402/);
		sim().state.balance = 100;
		const placed = await runLibreBor(sim(), order(), { workflow });
		expect(placed.error).toBeUndefined();
		expect(sim().state.documents).toHaveLength(1);
	});

	it('places an order LibreBOR refused once the reason is gone, in the same workflow', async () => {
		const workflow = savedWorkflow();
		sim().state.balance = 0;
		const refused = await runLibreBor(sim(), order(), { workflow, continueOnFail: true });
		expect(String(jsonOf(refused)[0].error)).toMatch(/402/);
		sim().state.balance = 100;
		const placed = await runLibreBor(sim(), order(), { workflow });
		expect(placed.error).toBeUndefined();
		expect(sim().state.documents).toHaveLength(1);
		expect(jsonOf(placed)[0].reused_order).toBeUndefined();
	});

	it('orders again once the Order Memory window has passed', async () => {
		const workflow = savedWorkflow();
		const shortMemory = { orderMemoryHours: 0.0003 };
		await runLibreBor(sim(), order({}, shortMemory), { workflow });
		await new Promise((resolve) => setTimeout(resolve, 1_300));
		const again = await runLibreBor(sim(), order({}, shortMemory), { workflow });
		expect(again.error).toBeUndefined();
		expect(sim().state.documents).toHaveLength(2);
	});

	it('orders again when Order Memory is 0, and waits on a reused order like on a new one', async () => {
		const workflow = savedWorkflow();
		await runLibreBor(sim(), order({}, { orderMemoryHours: 0 }), { workflow });
		await runLibreBor(sim(), order({}, { orderMemoryHours: 0 }), { workflow });
		expect(sim().state.ordersReceived).toBe(2);

		sim().state.documentProcessingMs = 1200;
		const remembered = savedWorkflow();
		await runLibreBor(sim(), order(), { workflow: remembered });
		const waited = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1 }),
			{ workflow: remembered },
		);
		expect(sim().state.ordersReceived).toBe(3);
		expect(jsonOf(waited)[0]).toMatchObject({
			reused_order: true,
			status: 'completed',
			document_id: sim().state.documents[2].id,
		});
	});

	it('refuses, before sending anything, orders past the hourly limit of the workflow', async () => {
		const workflow = savedWorkflow();
		const parameters = order({ nif: '={{ $json.nif }}' }, { maxOrdersPerHour: 3 });
		await runLibreBor(sim(), parameters, { items: twoCompanies, workflow });
		const refused = await runLibreBor(sim(), parameters, {
			items: [
				{ nif: 'J99216582' },
				{ nif: 'A86212420' },
				{ nif: 'B64717838' },
				{ nif: 'B12345674' },
			],
			workflow,
		});
		expect(refused.error?.message).toMatch(
			/placed 2 document orders in the last hour; 2 more would pass the limit of 3 per hour/,
		);
		expect((refused.error as { description?: string }).description).toMatch(/Max Orders per Hour/);
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('refuses an hourly limit or memory window that an expression turned into a non-number', async () => {
		for (const options of [
			{ maxOrdersPerHour: '={{ "twenty" }}' },
			{ orderMemoryHours: '={{ -1 }}' },
		]) {
			const result = await runLibreBor(sim(), order({}, options));
			expect(result.error?.message).toMatch(/must be a number of at least/);
		}
		expect(sim().state.ordersReceived).toBe(0);
	});
});

describe('Document: Order as an AI agent tool', () => {
	it("says in the editor's operation list that the operation spends money", () => {
		const operation = new LibreBor().description.properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes('document'),
		);
		const orderOption = operation?.options?.find(
			(option) => 'value' in option && option.value === 'order',
		) as { description?: string };
		expect(orderOption.description).toMatch(/^Spends money/);
	});

	it('places one order per execution unless the cap is raised', async () => {
		const tool = `${nodeTypeNameOf(new LibreBor())}Tool`;
		const items = [{ nif: 'B64717838' }, { nif: 'A86212420' }];
		const refused = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }), {
			items,
			nodeTypeName: tool,
		});
		expect(refused.error?.message).toMatch(/2 document orders, more than the limit of 1/);
		expect(sim().state.ordersReceived).toBe(0);
		const raised = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }, { maxOrders: 2 }), {
			items,
			nodeTypeName: tool,
		});
		expect(raised.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(2);
	});
});

describe('Document: Get', () => {
	it('outputs the document record with its ID', async () => {
		const ordered = await runLibreBor(sim(), order());
		const documentId = String(jsonOf(ordered)[0].document_id);
		const result = await runLibreBor(sim(), { resource: 'document', operation: 'get', documentId });
		expect(jsonOf(result)).toEqual([
			{ ...sim().state.viewDocumentById(documentId), document_id: documentId },
		]);
	});

	it('says the document is unknown on 404', async () => {
		const result = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'get',
			documentId: 'no-such-document',
		});
		expect(result.error?.message).toMatch(/does not know the document no-such-document/);
	});
});

describe('Document: Download', () => {
	const download = (documentId: string, options: INodeParameters = {}): INodeParameters => ({
		resource: 'document',
		operation: 'download',
		documentId,
		binaryPropertyName: 'data',
		options: { pollInterval: 1, ...options },
	});

	it('waits while the document is processing, then outputs the file and the record', async () => {
		sim().state.documentProcessingMs = 1200;
		const documentId = String(jsonOf(await runLibreBor(sim(), order()))[0].document_id);
		const result = await runLibreBor(sim(), download(documentId));
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ document_id: documentId, status: 'completed' });
		expect(item.binary?.data.fileName).toBe('cuentas-anuales-B64717838-2023.pdf');
		expect((await readBinary(item)).length).toBe(4096);
	});

	it('tries a broken file transfer again', async () => {
		const documentId = String(jsonOf(await runLibreBor(sim(), order()))[0].document_id);
		sim().injectFault({ origin: 'download', drop: true });
		sim().injectFault({ origin: 'download', status: 503, retryAfter: 0 });
		const result = await runLibreBor(sim(), download(documentId));
		expect(result.error).toBeUndefined();
		expect((await readBinary(result.items[0])).length).toBe(4096);
		expect(sim().requests.filter((request) => request.origin === 'download')).toHaveLength(3);
	});

	it('refuses a download link that is not HTTPS', async () => {
		sim().state.downloadLinkOverride = (document) => `http://localhost:1/files/${document.id}`;
		const documentId = String(jsonOf(await runLibreBor(sim(), order()))[0].document_id);
		const result = await runLibreBor(sim(), download(documentId));
		expect(result.error?.message).toMatch(/only HTTPS download links/);
	});

	it('shows the status of a finished document that has no download link', async () => {
		sim().state.finishedStatus = 'failed';
		sim().state.downloadLinkOverride = () => null;
		const documentId = String(jsonOf(await runLibreBor(sim(), order()))[0].document_id);
		const result = await runLibreBor(sim(), download(documentId));
		expect(result.error?.message).toMatch(/finished with status "failed" and no download link/);
	});
});
