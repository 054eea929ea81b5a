// An order is paid once: repeated in one execution, or ordered again by the workflow within the
// Order Memory window, in this process, on another worker or in n8n's Retry of an execution.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { deduplicationStore } from '../../tools/engine/index.mts';
import { jsonOf, pairedItemsOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { withClock } from '../support/wallClock.mts';
import {
	answerNextOrder,
	answerNextOrderLate,
	companies,
	copyOf,
	HOUR_MS,
	onAnotherWorker,
	order,
	ORDER_REQUEST,
	orderEach,
	savedWorkflow,
	startOfAnHour,
	twoCompanies,
} from './orderRuns.mts';

const sim = useSimulator();

describe('Orders: one execution never pays twice', () => {
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
		expect(sim().requestsTo('POST', ORDER_REQUEST.path)).toHaveLength(1);
		expect(result.items.map((item) => item.error?.context.itemIndex)).toEqual([0, 1, 2]);
		for (const repeated of result.items.slice(1)) {
			expect(repeated.error?.description).toMatch(
				/^Not sent again: this execution already ordered B64717838 2023 \(an earlier item, or an earlier try of this node\), and that order failed as above\.(?! Not sent again)/,
			);
		}
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('gives an item repeating an order of the same execution the downloaded file too', async () => {
		const [company] = companies(1);
		const result = await runLibreBor(sim(), orderEach({ download: true, pollInterval: 1 }), {
			items: [company, company],
		});
		expect(result.error).toBeUndefined();
		expect(
			result.items.map((item) => [
				item.json.reused_order,
				item.binary?.data?.fileName !== undefined,
			]),
		).toEqual([
			[undefined, true],
			[true, true],
		]);
		expect(sim().state.ordersReceived).toBe(1);
		// The repeat shares the first item's file: downloaded once.
		expect(sim().requests.filter(({ origin }) => origin === 'download')).toHaveLength(1);
	});

	it('downloads the file for an item repeating, with Download, an order an earlier item reused without it', async () => {
		const [company] = companies(1);
		const workflow = savedWorkflow();
		await runLibreBor(sim(), orderEach(), { items: [company], workflow });
		const download = { download: '={{ $json.download }}', pollInterval: 1 };
		const result = await runLibreBor(sim(), orderEach(download), {
			items: [
				{ ...company, download: false },
				{ ...company, download: true },
			],
			workflow,
		});
		expect(result.error).toBeUndefined();
		const [reused, repeated] = result.items;
		expect(reused.binary).toBeUndefined();
		expect(repeated.json).toMatchObject({
			document_id: reused.json.document_id,
			ordered_at: reused.json.ordered_at,
			reused_order: true,
		});
		expect(repeated.binary?.data.fileName).toBe(`cuentas-anuales-${company.nif}-2023.pdf`);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('downloads for an item asking for a larger file an order whose download failed for an earlier item, paying once', async () => {
		sim().state.documentSizeBytes = 100_000;
		const [company] = companies(1);
		const options = { download: true, pollInterval: 1, maxDownloadMb: '={{ $json.mb }}' };
		const result = await runLibreBor(sim(), orderEach(options), {
			items: [0.01, 1, 0.01].map((mb) => ({ ...company, mb })),
			continueOnFail: true,
		});
		const [small, large, sameAsFirst] = result.items;
		expect(String(small.json.error)).toMatch(/ the Max Download Size of 0.01 MB$/);
		expect(large.binary?.data.fileName).toBe(`cuentas-anuales-${company.nif}-2023.pdf`);
		// Asking as the first item did, it fails as that one did, without trying again.
		expect(sameAsFirst.error?.description).toMatch(
			/^Not sent again: this execution already ordered/,
		);
		expect(sim().requests.filter(({ origin }) => origin === 'download')).toHaveLength(2);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('downloads the file in a later Order node of the execution, into the field that node asks for', async () => {
		const executionId = 'order-then-download';
		const placed = await runLibreBor(sim(), order({}, { download: true, pollInterval: 1 }), {
			executionId,
		});
		expect(placed.items[0].binary?.data).toBeDefined();
		const withFile = { download: true, pollInterval: 1, binaryPropertyName: 'accounts' };
		const later = await runLibreBor(sim(), order({}, withFile), { executionId });
		expect(later.error).toBeUndefined();
		expect(later.items[0].json).toMatchObject({
			document_id: jsonOf(placed)[0].document_id,
			reused_order: true,
		});
		expect(later.items[0].binary?.accounts.fileName).toBe('cuentas-anuales-B64717838-2023.pdf');
		expect(sim().state.ordersReceived).toBe(1);
	});
});

describe('Orders: Retry On Fail tries again what was not placed, and pays once', () => {
	it('sends again in its next try an order LibreBOR refused, and those its stop left unsent, within Max Orders', async () => {
		// Six orders held, one refused: the next try's six count with that one, 7 of the default 10.
		const items = companies(6);
		answerNextOrder(sim(), { status: 429, retryAfter: 1 });
		const result = await runLibreBor(sim(), orderEach(), { items, retryOnFail: true });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map(({ nif }) => nif)).toEqual(items.map(({ nif }) => nif));
		const sent = sim()
			.requestsTo('POST', ORDER_REQUEST.path)
			.map(({ form }) => form.nif);
		expect(sent).toEqual([items[0].nif, ...items.map(({ nif }) => nif)]);
		expect(sim().state.ordersReceived).toBe(6);
	});

	it('counts the refused order again in its next try, as sent: under Max Orders 1 that try is refused', async () => {
		answerNextOrder(sim(), { status: 429, retryAfter: 1 });
		const result = await runLibreBor(sim(), order({}, { maxOrders: 1 }), { retryOnFail: true });
		expect(result.error?.message).toMatch(/more than the limit of 1$/);
		expect(sim().requestsTo('POST', ORDER_REQUEST.path)).toHaveLength(1);
	});

	it('waits for and downloads again an order placed before its download failed, without paying again', async () => {
		sim().injectFault({ origin: 'download', status: 404, body: '' });
		const result = await runLibreBor(sim(), order({}, { download: true, pollInterval: 1 }), {
			retryOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ nif: 'B64717838', reused_order: true });
		expect(result.items[0].binary?.data.fileName).toBe('cuentas-anuales-B64717838-2023.pdf');
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('waits for and downloads again, in the next try, an order reused from an earlier execution whose download failed', async () => {
		const workflow = savedWorkflow();
		await runLibreBor(sim(), order(), { workflow });
		sim().injectFault({ origin: 'download', status: 404, body: '' });
		const result = await runLibreBor(sim(), order({}, { download: true, pollInterval: 1 }), {
			workflow,
			retryOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.data.fileName).toBe('cuentas-anuales-B64717838-2023.pdf');
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('downloads for an item asking for a larger file an order reused from an earlier execution, whose download failed for an earlier item', async () => {
		const workflow = savedWorkflow();
		sim().state.documentSizeBytes = 100_000;
		const [company] = companies(1);
		await runLibreBor(sim(), orderEach(), { workflow, items: [company] });
		const options = { download: true, pollInterval: 1, maxDownloadMb: '={{ $json.mb }}' };
		const result = await runLibreBor(sim(), orderEach(options), {
			workflow,
			items: [0.01, 1].map((mb) => ({ ...company, mb })),
			continueOnFail: true,
		});
		expect(String(result.items[0].json.error)).toMatch(/ the Max Download Size of 0.01 MB$/);
		expect(result.items[1].binary?.data.fileName).toBe(`cuentas-anuales-${company.nif}-2023.pdf`);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('reuses it so also in a later run with Order Memory 0, which reuses no order of other executions', async () => {
		sim().injectFault({ origin: 'download', status: 404, body: '' });
		const executionId = 'one-execution';
		const failed = await runLibreBor(sim(), order({}, { download: true, pollInterval: 1 }), {
			executionId,
		});
		expect(failed.error?.message).toMatch(/^The download host answered 404/);
		// Reused, it is no new order for Max Orders 1.
		const noMemory = { download: true, pollInterval: 1, orderMemoryHours: 0, maxOrders: 1 };
		const later = await runLibreBor(sim(), order({}, noMemory), { executionId });
		expect(later.error).toBeUndefined();
		expect(later.items[0].json).toMatchObject({ reused_order: true });
		expect(later.items[0].binary?.data.fileName).toBe('cuentas-anuales-B64717838-2023.pdf');
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('does not send again an order whose answer was lost, and says why', async () => {
		answerNextOrder(sim(), { afterHandling: true, drop: true });
		const result = await runLibreBor(sim(), order(), { retryOnFail: true });
		expect(result.error?.message).toMatch(/may have been placed/);
		expect((result.error as { description?: string }).description).toMatch(
			/^Not sent again: this execution already ordered B64717838 2023 \(an earlier item, or an earlier try of this node\)/,
		);
		expect(sim().requestsTo('POST', ORDER_REQUEST.path)).toHaveLength(1);
	});
});

describe('Orders: the order memory of the workflow', () => {
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
		const items = [...twoCompanies, { nif: 'J99216582' }];
		// Enough balance for two orders: the third is refused and fails the node.
		sim().state.balance = 2 * sim().state.orderPrice;
		const failed = await runLibreBor(sim(), orderEach(), { items, workflow });
		expect(failed.error?.message).toMatch(/402/);
		expect(sim().state.documents).toHaveLength(2);
		const placed = sim().state.documents.map((document) => document.id);

		sim().state.balance = 100;
		const again = await runLibreBor(sim(), orderEach(), { items, workflow });
		expect(again.error).toBeUndefined();
		expect(jsonOf(again).map((answer) => [answer.document_id, answer.reused_order])).toEqual([
			...placed.map((id) => [id, true]),
			[sim().state.documents[2].id, undefined],
		]);
		expect(sim().state.documents).toHaveLength(3);
	});

	it("sends no order at all when an item has an invalid NIF, without Continue On Fail, nor writes to n8n's database", async () => {
		// n8n's store holds the next write back: a run that wrote before refusing would wait on it.
		const held = deduplicationStore.pauseNextRecord();
		const workflow = savedWorkflow();
		const result = await runLibreBor(sim(), orderEach(), {
			items: [...twoCompanies, { nif: 'not-a-nif' }],
			workflow,
		});
		expect(result.error?.message).toMatch(/The NIF "not-a-nif" is not valid/);
		expect(result.error?.context.itemIndex).toBe(2);
		expect(sim().state.ordersReceived).toBe(0);

		// The held write is the next run's, which goes through once it is let go.
		const next = runLibreBor(sim(), orderEach(), { items: twoCompanies, workflow });
		await held.read;
		await held.write();
		held.answer();
		expect((await next).error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(2);
	});

	it("sends no order at all when an item's Year expression fails, and gives n8n's error for that item", async () => {
		const result = await runLibreBor(
			sim(),
			order({ year: "={{ $json.year ?? $('Missing').item.json.year }}" }),
			{ items: [{ year: 2023 }, {}, { year: 2022 }] },
		);
		expect(result.error?.message).toBe("Referenced node doesn't exist");
		expect(result.error?.context.itemIndex).toBe(1);
		expect(sim().state.ordersReceived).toBe(0);
	});

	it('with Continue On Fail, fails only the item whose Year expression fails, and orders the others', async () => {
		const result = await runLibreBor(
			sim(),
			order({ year: "={{ $json.year ?? $('Missing').item.json.year }}" }),
			{ items: [{ year: 2023 }, {}, { year: 2022 }], continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((answer) => answer.error ?? answer.year)).toEqual([
			2023,
			"Referenced node doesn't exist",
			2022,
		]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('reuses an order for 24 hours by default, with the time it was placed, and orders again at 24 hours', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		await withClock(async (setTime) => {
			const placedAt = startOfAnHour();
			setTime(placedAt);
			const first = await runLibreBor(sim(), orderEach(), { items, workflow });
			setTime(placedAt + 23.9 * HOUR_MS);
			const reused = await runLibreBor(sim(), orderEach(), { items, workflow });
			expect(jsonOf(reused)[0]).toMatchObject({
				document_id: jsonOf(first)[0].document_id,
				reused_order: true,
				ordered_at: new Date(placedAt).toISOString(),
			});
			expect(sim().state.ordersReceived).toBe(1);

			// The window is over to the millisecond.
			setTime(placedAt + 24 * HOUR_MS);
			const again = await runLibreBor(sim(), orderEach(), { items, workflow });
			expect(again.error).toBeUndefined();
			expect(jsonOf(again)[0].reused_order).toBeUndefined();
			expect(sim().state.ordersReceived).toBe(2);
		});
	});

	it('reuses an order placed under a shorter Order Memory once the window is made longer', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		await withClock(async (setTime) => {
			const placedAt = Date.now();
			const first = await runLibreBor(sim(), orderEach({ orderMemoryHours: 1 }), {
				items,
				workflow,
			});
			setTime(placedAt + 3 * HOUR_MS);
			const reused = await runLibreBor(sim(), orderEach(), { items, workflow });
			expect(jsonOf(reused)[0]).toMatchObject({
				document_id: jsonOf(first)[0].document_id,
				reused_order: true,
			});
		});
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('orders again once the Order Memory window has passed', async () => {
		const workflow = savedWorkflow();
		// 0.0003 h is 1.08 s: the second order comes 2 s after the first.
		const shortMemory = { orderMemoryHours: 0.0003 };
		await withClock(async (setTime) => {
			const placedAt = Date.now();
			await runLibreBor(sim(), order({}, shortMemory), { workflow });
			setTime(placedAt + 2_000);
			const again = await runLibreBor(sim(), order({}, shortMemory), { workflow });
			expect(again.error).toBeUndefined();
		});
		expect(sim().state.documents).toHaveLength(2);
	});

	it('orders again when Order Memory is 0, and waits on a reused order like on a new one', async () => {
		const workflow = savedWorkflow();
		await runLibreBor(sim(), order({}, { orderMemoryHours: 0 }), { workflow });
		await runLibreBor(sim(), order({}, { orderMemoryHours: 0 }), { workflow });
		// Nor is it refused on another worker, as an order another execution recorded would be.
		const elsewhere = await runLibreBor(sim(), order({}, { orderMemoryHours: 0 }), {
			workflow: { id: workflow.id, staticData: {} },
			nodeType: await onAnotherWorker(),
		});
		expect(elsewhere.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(3);

		sim().state.documentProcessingMs = 1200;
		const remembered = savedWorkflow();
		await runLibreBor(sim(), order(), { workflow: remembered });
		const waited = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1 }),
			{ workflow: remembered },
		);
		expect(sim().state.ordersReceived).toBe(4);
		expect(jsonOf(waited)[0]).toMatchObject({
			reused_order: true,
			status: 'completed',
			document_id: sim().state.documents[3].id,
		});
	});

	it('still reuses an order after a run with Order Memory 0 in the same workflow', async () => {
		const workflow = savedWorkflow();
		await withClock(async (setTime) => {
			const start = startOfAnHour();
			setTime(start);
			const first = await runLibreBor(sim(), order(), { workflow });
			setTime(start + 2 * HOUR_MS);
			await runLibreBor(sim(), order({ nif: 'A86212420' }, { orderMemoryHours: 0 }), { workflow });
			setTime(start + 3 * HOUR_MS);
			const again = await runLibreBor(sim(), order(), { workflow });
			expect(again.error).toBeUndefined();
			expect(jsonOf(again)[0]).toMatchObject({
				document_id: jsonOf(first)[0].document_id,
				reused_order: true,
			});
			expect(sim().state.ordersReceived).toBe(2);
		});
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
});

describe('Orders: the order memory across processes, workers and retries', () => {
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

	it('answers only once an order still in flight when another item failed is in the static data n8n saves', async () => {
		const workflow = savedWorkflow();
		const [inFlight, reused] = companies(2);
		sim().state.documentProcessingMs = 600_000;
		await runLibreBor(sim(), orderEach(), { items: [reused], workflow });
		const reusedDocument = sim().state.documents[0].id;
		// The reused order's wait fails while the other order's answer is on its way.
		sim().onRequest(ORDER_REQUEST, () => {
			sim().injectFault({ method: 'GET', path: `/v2/documents/${reusedDocument}/`, status: 401 });
		});
		answerNextOrderLate(sim(), 5_000);
		const failed = await runLibreBor(
			sim(),
			orderEach({ waitForCompletion: true, pollInterval: 1 }),
			{ items: [inFlight, reused], workflow },
		);
		expect(failed.error?.message).toMatch(/401/);
		const saved = copyOf(workflow.staticData);
		const elsewhere = await runLibreBor(sim(), orderEach(), {
			items: [inFlight],
			workflow: { id: workflow.id, staticData: saved },
			nodeType: await onAnotherWorker(),
		});
		expect(jsonOf(elsewhere)[0]).toMatchObject({ reused_order: true });
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('reuses the newest order of a NIF and year, whether this process or the static data holds it', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		const oneHour = orderEach({ orderMemoryHours: 1 });
		await withClock(async (setTime) => {
			const start = startOfAnHour();
			setTime(start);
			await runLibreBor(sim(), oneHour, { items, workflow });
			const savedHere = copyOf(workflow.staticData);
			// Past the window, another worker orders it again.
			setTime(start + 1.5 * HOUR_MS);
			const elsewhere = { id: workflow.id, staticData: copyOf(savedHere) };
			await runLibreBor(sim(), oneHour, {
				items,
				workflow: elsewhere,
				nodeType: await onAnotherWorker(),
			});
			setTime(start + 1.7 * HOUR_MS);
			// First the static data holds the newer order, then only this process does.
			for (const staticData of [elsewhere.staticData, savedHere]) {
				const reused = await runLibreBor(sim(), oneHour, {
					items,
					workflow: { id: workflow.id, staticData: copyOf(staticData) },
				});
				expect(jsonOf(reused)[0]).toMatchObject({
					document_id: sim().state.documents[1].id,
					reused_order: true,
				});
			}
		});
		expect(sim().state.ordersReceived).toBe(2);
	});

	it("writes back into the static data this process's orders that another worker's save dropped", async () => {
		const workflow = savedWorkflow();
		const [first, second] = companies(2);
		await runLibreBor(sim(), orderEach(), { items: [first], workflow });
		// Another worker loaded the static data before that save, and n8n keeps its later save.
		const savedElsewhere = { id: workflow.id, staticData: {} as IDataObject };
		await runLibreBor(sim(), orderEach(), {
			items: [second],
			workflow: savedElsewhere,
			nodeType: await onAnotherWorker(),
		});
		await runLibreBor(sim(), orderEach(), { items: [second], workflow: savedElsewhere });
		const later = await runLibreBor(sim(), orderEach(), {
			items: [first, second],
			workflow: { id: workflow.id, staticData: copyOf(savedElsewhere.staticData) },
			nodeType: await onAnotherWorker(),
		});
		expect(jsonOf(later).map((answer) => answer.reused_order)).toEqual([true, true]);
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('forgets an order in the static data n8n saves once two Order Memory windows have passed, to the millisecond', async () => {
		const workflow = savedWorkflow();
		const [first, second] = companies(2);
		type Memory = { global: { libreBorOrders: { orders: Record<string, IDataObject> } } };
		const kept = () =>
			Object.values((workflow.staticData as Memory).global.libreBorOrders.orders).map(
				(order) => order.documentId,
			);
		await withClock(async (setTime) => {
			const placedAt = startOfAnHour();
			setTime(placedAt);
			await runLibreBor(sim(), orderEach(), { items: [first], workflow });
			setTime(placedAt + 48 * HOUR_MS);
			await runLibreBor(sim(), orderEach(), { items: [second], workflow });
		});
		expect(kept()).toEqual([sim().state.documents[1].id]);
	});

	it('keeps at most 5,000 orders of earlier executions in the static data n8n saves, forgetting the first written', async () => {
		const workflow = savedWorkflow();
		const [first, second] = companies(2);
		await runLibreBor(sim(), orderEach(), { items: [first], workflow });
		type Memory = { global: { libreBorOrders: { orders: Record<string, IDataObject> } } };
		const stored = () => (workflow.staticData as Memory).global.libreBorOrders.orders;
		const [[firstKey, firstOrder]] = Object.entries(stored());
		const account = firstKey.slice(0, firstKey.indexOf('#') + 1);
		// 6,000 orders of other companies, written before the first one and as recent.
		const earlier: Record<string, IDataObject> = {};
		for (let index = 0; index < 6_000; index++)
			earlier[`${account}X${index}/2023`] = { ...firstOrder, documentId: `earlier-${index}` };
		workflow.staticData = {
			global: { libreBorOrders: { orders: { ...earlier, ...stored() }, placedAt: [] } },
		};

		await runLibreBor(sim(), orderEach(), {
			items: [second],
			workflow,
			nodeType: await onAnotherWorker(),
		});
		const kept = Object.values(stored()).map((order) => order.documentId);
		// The last 5,000 known when the execution started (the first order among them), and its own.
		expect(kept).toHaveLength(5_001);
		expect(kept.slice(0, 4_999)).toEqual(
			Array.from({ length: 4_999 }, (_, index) => `earlier-${index + 1_001}`),
		);
		expect(kept.slice(4_999)).toEqual(sim().state.documents.map(({ id }) => id));
	});

	it('reuses no damaged record of the static data, and fails on no damaged shape of it', async () => {
		const items = companies(4);
		const first = savedWorkflow();
		await runLibreBor(sim(), orderEach(), { items, workflow: first });
		const damaged = copyOf(first.staticData) as {
			global: { libreBorOrders: { orders: Record<string, IDataObject | null> } };
		};
		const orders = damaged.global.libreBorOrders.orders;
		const [one, two, three, four] = Object.values(orders) as IDataObject[];
		one.documentId = 42;
		delete two.orderedAt;
		// A number, but no time a date can hold.
		three.orderedAt = 9e15;
		// A date, but written as text.
		four.orderedAt = new Date(four.orderedAt as number).toISOString();
		orders.emptied = null;
		// This process placed them: the damaged records make it forget none.
		const here = await runLibreBor(sim(), orderEach(), {
			items,
			workflow: { id: first.id, staticData: copyOf(damaged as unknown as IDataObject) },
		});
		expect(jsonOf(here).map((answer) => answer.reused_order)).toEqual([true, true, true, true]);
		const elsewhere = await runLibreBor(sim(), orderEach(), {
			items,
			workflow: { id: first.id, staticData: damaged as unknown as IDataObject },
			nodeType: await onAnotherWorker(),
			continueOnFail: true,
		});
		// Nothing usable remembered: the intents store then refuses, as for an order whose outcome is lost.
		expect(elsewhere.items.map((item) => item.error?.message)).toEqual(
			items.map(({ nif }) => expect.stringContaining(`sent the order for ${nif} 2023`)),
		);
		expect(sim().state.ordersReceived).toBe(4);
		for (const shape of [
			'not an object',
			{ orders: null, placedAt: [] },
			{ orders: 'x', placedAt: [] },
			{ orders: {}, placedAt: 'x' },
		]) {
			const workflow = {
				id: savedWorkflow().id,
				staticData: { global: { libreBorOrders: shape } } as IDataObject,
			};
			const result = await runLibreBor(sim(), orderEach(), {
				items: companies(1, 10),
				workflow,
				nodeType: await onAnotherWorker(),
			});
			expect(result.error).toBeUndefined();
		}
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

	it("hands a failed execution's orders to n8n's Retry of it on another worker, which reuses them and places the rest", async () => {
		const workflow = savedWorkflow();
		const items = companies(2);
		sim().state.balance = sim().state.orderPrice;
		const before = Date.now();
		const failed = await runLibreBor(sim(), orderEach(), { items, workflow });
		const after = Date.now();
		expect(failed.error?.message).toMatch(/402/);
		expect(sim().state.ordersReceived).toBe(2);

		// A retry "with the original workflow" gets no static data; the new worker has no memory.
		sim().state.balance = 100;
		const retried = await runLibreBor(sim(), orderEach(), {
			retryOf: failed,
			workflow: { id: workflow.id, staticData: {} },
			nodeType: await onAnotherWorker(),
		});
		expect(retried.error).toBeUndefined();
		const [reused, placed] = jsonOf(retried);
		expect(reused).toMatchObject({
			document_id: sim().state.documents[0].id,
			nif: items[0].nif,
			reused_order: true,
		});
		expect(Date.parse(String(reused.ordered_at))).toBeGreaterThanOrEqual(before);
		expect(Date.parse(String(reused.ordered_at))).toBeLessThanOrEqual(after);
		expect(placed).toMatchObject({ document_id: sim().state.documents[1].id, nif: items[1].nif });
		expect(sim().state.ordersReceived).toBe(3);
		expect(sim().state.documents).toHaveLength(2);
	});

	it('orders again in a retry when Order Memory is 0', async () => {
		const workflow = savedWorkflow();
		const memoryOff = orderEach({ orderMemoryHours: 0 });
		sim().state.balance = sim().state.orderPrice;
		const failed = await runLibreBor(sim(), memoryOff, { items: companies(2), workflow });
		expect(failed.error?.message).toMatch(/402/);
		sim().state.balance = 100;
		const retried = await runLibreBor(sim(), memoryOff, { retryOf: failed, workflow });
		expect(jsonOf(retried).map((answer) => answer.reused_order)).toEqual([undefined, undefined]);
		expect(sim().state.ordersReceived).toBe(4);
	});
});
