// The promises the README makes about money, each pinned by what the user sees: the orders
// LibreBOR receives, the items' outcomes and what a later execution or a retry does.
import { DataDeduplicationService } from 'n8n-core';
import type { ICheckProcessedContextData, IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { makeCif } from '../../tools/simulator/nif.mts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';

const sim = useSimulator();
const otherAccount = useSimulator();

const HOUR_MS = 3_600_000;
/** A minute into an hour of the clock: where one-hour Order Memory windows begin. */
const startOfAnHour = () => Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + 60_000;

const order = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'document',
	operation: 'order',
	nif: '={{ $json.nif }}',
	year: 2023,
	options,
});

/** Distinct valid NIFs of companies, as items. */
const companies = (count: number, from = 0) =>
	Array.from({ length: count }, (_, index) => ({
		nif: makeCif('B', String(1_000_000 + from + index)),
	}));

const copyOf = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;

let workflowCounter = 0;
const savedWorkflow = () => ({
	id: `promises-workflow-${++workflowCounter}`,
	staticData: {} as IDataObject,
});

/** The node as loaded by another n8n process or worker: none of this process's memory. */
const onAnotherWorker = async () => {
	vi.resetModules();
	const { LibreBor } = await import('../../nodes/LibreBor/LibreBor.node.ts');
	return new LibreBor();
};

const withClock = async (run: (setTime: (ms: number) => void) => Promise<void>) => {
	vi.useFakeTimers({ toFake: ['Date'] });
	try {
		await run((ms) => vi.setSystemTime(ms));
	} finally {
		vi.useRealTimers();
	}
};

describe('Orders: the limits', () => {
	it('counts Max Orders per Execution across every run of the node in a loop, and sends a repeated order once', async () => {
		const [first, second, third] = companies(3);
		const result = await runLibreBor(sim(), order({ maxOrders: 2 }), {
			items: [first, second, first, third],
			loopBatchSize: 1,
		});
		expect(result.error?.message).toMatch(
			/would place 3 document orders, more than the limit of 2/,
		);
		expect(sim().state.ordersReceived).toBe(2);
		expect(sim().state.documents.map((document) => document.nif)).toEqual([first.nif, second.nif]);
	});

	it('does not count an order reused from an earlier execution towards Max Orders per Execution, in a loop', async () => {
		const workflow = savedWorkflow();
		const [earlier, fresh] = companies(2);
		await runLibreBor(sim(), order(), { items: [earlier], workflow });
		const looped = await runLibreBor(sim(), order({ maxOrders: 1 }), {
			items: [earlier, fresh],
			workflow,
			loopBatchSize: 1,
		});
		expect(looped.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('refuses 11 orders in one execution and 21 in an hour by default', async () => {
		const workflow = savedWorkflow();
		const refused = await runLibreBor(sim(), order(), { items: companies(11), workflow });
		expect(refused.error?.message).toMatch(
			/would place 11 document orders, more than the limit of 10$/,
		);
		expect(sim().state.ordersReceived).toBe(0);

		for (const from of [0, 10]) {
			const placed = await runLibreBor(sim(), order(), { items: companies(10, from), workflow });
			expect(placed.error).toBeUndefined();
		}
		const pastTheHour = await runLibreBor(sim(), order(), { items: companies(1, 20), workflow });
		expect(pastTheHour.error?.message).toMatch(
			/has placed 20 document orders in the last hour; 1 more would pass the limit of 20 per hour/,
		);
		expect(sim().state.ordersReceived).toBe(20);
	});

	it('counts Max Orders per Hour over a rolling hour, and only the orders that would be new', async () => {
		const workflow = savedWorkflow();
		const perHour = order({ maxOrdersPerHour: 2, maxOrders: 1 });
		await withClock(async (setTime) => {
			const start = Date.now();
			for (const [index, items] of [companies(1), companies(1, 1)].entries()) {
				setTime(start + index * 1_000);
				await runLibreBor(sim(), perHour, { items, workflow });
			}
			setTime(start + 59 * 60_000);
			const refused = await runLibreBor(sim(), perHour, { items: companies(1, 2), workflow });
			expect(refused.error?.message).toMatch(/has placed 2 document orders in the last hour/);
			// Reused orders are not counted, towards either limit.
			const reusedAndNew = companies(2, 1);
			setTime(start + 61 * 60_000 + 1_000);
			const placed = await runLibreBor(sim(), perHour, { items: reusedAndNew, workflow });
			expect(placed.error).toBeUndefined();
			expect(jsonOf(placed).map((answer) => answer.reused_order)).toEqual([true, undefined]);
		});
		expect(sim().state.ordersReceived).toBe(3);
	});

	it('counts in Max Orders per Hour every order, also two placed in the same millisecond', async () => {
		const workflow = savedWorkflow();
		const perHour = order({ maxOrdersPerHour: 2 });
		await withClock(async () => {
			await runLibreBor(sim(), perHour, { items: companies(2), workflow });
			const refused = await runLibreBor(sim(), perHour, { items: companies(1, 2), workflow });
			expect(refused.error?.message).toMatch(/has placed 2 document orders in the last hour/);
		});
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('counts an order that failed once towards Max Orders per Hour, refused or failed once placed', async () => {
		const workflow = savedWorkflow();
		const perHour = (options: INodeParameters = {}) => order({ maxOrdersPerHour: 3, ...options });
		sim().state.balance = 0;
		await runLibreBor(sim(), perHour(), { items: companies(1), workflow, continueOnFail: true });
		sim().state.balance = 100;
		sim().state.documentProcessingMs = 60_000;
		const waitFailed = await runLibreBor(
			sim(),
			perHour({ waitForCompletion: true, pollInterval: 1, maxWait: 2 }),
			{
				items: companies(1, 1),
				workflow,
				continueOnFail: true,
			},
		);
		expect(waitFailed.items[0].error?.message).toContain(sim().state.documents[0].id);

		const third = await runLibreBor(sim(), perHour(), { items: companies(1, 2), workflow });
		expect(third.error).toBeUndefined();
		const fourth = await runLibreBor(sim(), perHour(), { items: companies(1, 3), workflow });
		expect(fourth.error?.message).toMatch(/has placed 3 document orders in the last hour/);
		expect(sim().state.ordersReceived).toBe(3);
	});

	it('counts towards Max Orders per Execution only the items that would place an order', async () => {
		const result = await runLibreBor(sim(), order({ maxOrders: 1 }), {
			items: [...companies(1), { nif: 'not a NIF' }],
			continueOnFail: true,
		});
		expect(String(jsonOf(result)[1].error)).toMatch(/The NIF "not a NIF" is not valid/);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('reuses orders even once this workflow has reached Max Orders per Hour', async () => {
		const workflow = savedWorkflow();
		const items = companies(2);
		await runLibreBor(sim(), order(), { items, workflow });
		const reused = await runLibreBor(sim(), order({ maxOrdersPerHour: 1 }), { items, workflow });
		expect(jsonOf(reused).map((answer) => answer.reused_order)).toEqual([true, true]);
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('counts in Max Orders per Hour the orders another process placed, as the static data carries them', async () => {
		const workflow = savedWorkflow();
		const perHour = order({ maxOrdersPerHour: 3 });
		await runLibreBor(sim(), perHour, {
			items: companies(2),
			workflow,
			nodeType: await onAnotherWorker(),
		});
		const saved = copyOf(workflow.staticData);

		const elsewhere = await runLibreBor(sim(), perHour, {
			items: companies(2, 2),
			workflow: { id: workflow.id, staticData: saved },
			nodeType: await onAnotherWorker(),
		});
		expect(elsewhere.error?.message).toMatch(
			/has placed 2 document orders in the last hour; 2 more would pass the limit of 3/,
		);
		expect(sim().state.ordersReceived).toBe(2);
	});
});

describe('Orders: the order memory', () => {
	it('reuses an order for 24 hours by default, with the time it was placed, and orders again after', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		await withClock(async (setTime) => {
			const placedAt = startOfAnHour();
			setTime(placedAt);
			const first = await runLibreBor(sim(), order(), { items, workflow });
			setTime(placedAt + 23.9 * HOUR_MS);
			const reused = await runLibreBor(sim(), order(), { items, workflow });
			expect(jsonOf(reused)[0]).toMatchObject({
				document_id: jsonOf(first)[0].document_id,
				reused_order: true,
				ordered_at: new Date(placedAt).toISOString(),
			});
			expect(sim().state.ordersReceived).toBe(1);

			setTime(placedAt + 24.1 * HOUR_MS);
			const again = await runLibreBor(sim(), order(), { items, workflow });
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
			const first = await runLibreBor(sim(), order({ orderMemoryHours: 1 }), { items, workflow });
			setTime(placedAt + 3 * HOUR_MS);
			const reused = await runLibreBor(sim(), order(), { items, workflow });
			expect(jsonOf(reused)[0]).toMatchObject({
				document_id: jsonOf(first)[0].document_id,
				reused_order: true,
			});
		});
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('reuses the newest order of a NIF and year, whether this process or the static data holds it', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		const oneHour = order({ orderMemoryHours: 1 });
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
		await runLibreBor(sim(), order(), { items: [first], workflow });
		// Another worker loaded the static data before that save, and n8n keeps its later save.
		const savedElsewhere = { id: workflow.id, staticData: {} as IDataObject };
		await runLibreBor(sim(), order(), {
			items: [second],
			workflow: savedElsewhere,
			nodeType: await onAnotherWorker(),
		});
		await runLibreBor(sim(), order(), { items: [second], workflow: savedElsewhere });
		const later = await runLibreBor(sim(), order(), {
			items: [first, second],
			workflow: { id: workflow.id, staticData: copyOf(savedElsewhere.staticData) },
			nodeType: await onAnotherWorker(),
		});
		expect(jsonOf(later).map((answer) => answer.reused_order)).toEqual([true, true]);
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('orders again in a retry when Order Memory is 0', async () => {
		const workflow = savedWorkflow();
		const memoryOff = order({ orderMemoryHours: 0 });
		sim().state.balance = sim().state.orderPrice;
		const failed = await runLibreBor(sim(), memoryOff, { items: companies(2), workflow });
		expect(failed.error?.message).toMatch(/402/);
		sim().state.balance = 100;
		const retried = await runLibreBor(sim(), memoryOff, { retryOf: failed, workflow });
		expect(jsonOf(retried).map((answer) => answer.reused_order)).toEqual([undefined, undefined]);
		expect(sim().state.ordersReceived).toBe(4);
	});

	it('reuses no damaged record of the static data, and fails on no damaged shape of it', async () => {
		const items = companies(2);
		const first = savedWorkflow();
		await runLibreBor(sim(), order(), { items, workflow: first });
		const damaged = copyOf(first.staticData) as {
			global: { libreBorOrders: { orders: Record<string, IDataObject | null> } };
		};
		const orders = damaged.global.libreBorOrders.orders;
		const [one, two] = Object.values(orders) as IDataObject[];
		one.documentId = 42;
		delete two.orderedAt;
		orders.emptied = null;
		const elsewhere = await runLibreBor(sim(), order(), {
			items,
			workflow: { id: first.id, staticData: damaged as unknown as IDataObject },
			nodeType: await onAnotherWorker(),
			continueOnFail: true,
		});
		// Nothing usable remembered: the intents store then refuses, as for an order whose outcome is lost.
		expect(elsewhere.items.map((item) => item.error?.message)).toEqual(
			items.map(({ nif }) => expect.stringContaining(`sent the order for ${nif} 2023`)),
		);
		expect(sim().state.ordersReceived).toBe(2);
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
			const result = await runLibreBor(sim(), order(), {
				items: companies(1, 10),
				workflow,
				nodeType: await onAnotherWorker(),
			});
			expect(result.error).toBeUndefined();
		}
	});

	it('gives an item repeating an order of the same execution the downloaded file too', async () => {
		const [company] = companies(1);
		const result = await runLibreBor(sim(), order({ download: true, pollInterval: 1 }), {
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
	});

	it('keeps the orders of one LibreBOR account from another account used by the same workflow', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		await runLibreBor(sim(), order(), { items, workflow });
		const result = await runLibreBor(otherAccount(), order(), {
			items,
			workflow,
			continueOnFail: true,
		});
		expect(jsonOf(result)[0]).not.toHaveProperty('error');
		expect(jsonOf(result)[0].reused_order).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(1);
		expect(otherAccount().state.ordersReceived).toBe(1);

		// Another user of the same API host: it sends its own order (refused here, as the simulator
		// knows one user only) instead of reusing the first user's.
		const otherUser = await runLibreBor(sim(), order(), {
			items,
			workflow,
			credentials: { username: 'other-user' },
			continueOnFail: true,
		});
		expect(otherUser.items[0].error?.message).toContain('(401)');
	});

	it("hands a failed execution's orders to n8n's Retry of it on another worker, which reuses them and places the rest", async () => {
		const workflow = savedWorkflow();
		const items = companies(2);
		sim().state.balance = sim().state.orderPrice;
		const before = Date.now();
		const failed = await runLibreBor(sim(), order(), { items, workflow });
		const after = Date.now();
		expect(failed.error?.message).toMatch(/402/);
		expect(sim().state.ordersReceived).toBe(2);

		// A retry "with the original workflow" gets no static data; the new worker has no memory.
		sim().state.balance = 100;
		const retried = await runLibreBor(sim(), order(), {
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

	it("sends no order again after a worker died, even once a Remove Duplicates node's Clean Database ran", async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		// The worker sends the order, then dies: n8n saves nothing of its execution.
		await runLibreBor(sim(), order(), {
			items,
			workflow: { id: workflow.id, staticData: {} },
			nodeType: await onAnotherWorker(),
		});
		// The node keeps its records in its own row of n8n's deduplication store, which another
		// node's Clean Database (scope workflow, or scope node for that node) does not touch.
		const removeDuplicates = { id: 'remove-duplicates', name: 'Remove Duplicates' };
		const store = DataDeduplicationService.getInstance();
		for (const scope of ['workflow', 'node'] as const) {
			const removeDuplicatesRow = {
				workflow: { id: workflow.id },
				node: removeDuplicates,
			} as unknown as ICheckProcessedContextData;
			await store.clearAllProcessedItems(scope, removeDuplicatesRow, { mode: 'entries' });
		}
		const again = await runLibreBor(sim(), order(), {
			items,
			workflow: { id: workflow.id, staticData: {} },
			nodeType: await onAnotherWorker(),
			continueOnFail: true,
		});
		expect(String(jsonOf(again)[0].error)).toContain(
			'Another execution of this workflow sent the order',
		);
		expect(sim().state.ordersReceived).toBe(1);
	});
});

describe('Orders: answers the API contract does not show', () => {
	// The contract does not say how LibreBOR refuses an order without balance: the simulator answers
	// 402; the real service may answer another 4xx, or a 2xx that says it failed.
	const noBalance = (status: number) =>
		sim().injectFault({
			method: 'POST',
			path: '/v2/documents/order/',
			status,
			body: JSON.stringify({ result: 'error', message: 'Insufficient balance.' }),
		});

	it.each([400, 403, 409])(
		'fails an order refused with %i, shows why, and places it once later',
		async (status) => {
			const workflow = savedWorkflow();
			const items = companies(1);
			noBalance(status);
			const refused = await runLibreBor(sim(), order(), { items, workflow, continueOnFail: true });
			expect(refused.items[0].error?.message).toContain(`(${status})`);
			expect(refused.items[0].error?.description).toContain(
				'LibreBOR said: "Insufficient balance."',
			);

			const placed = await runLibreBor(sim(), order(), { items, workflow });
			expect(placed.error).toBeUndefined();
			expect(sim().state.documents).toHaveLength(1);
		},
	);

	it('says an order answered with a success status but no document may have been placed, and never sends it again by itself', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		noBalance(200);
		const unclear = await runLibreBor(sim(), order(), { items, workflow, continueOnFail: true });
		expect(unclear.items[0].error?.message).toBe(
			`LibreBOR answered the order of the 2023 annual accounts of ${items[0].nif} without a document ID (result "error"): it may have been placed`,
		);
		expect(unclear.items[0].error?.description).toMatch(
			/^LibreBOR said: "Insufficient balance."\. It was not sent again, so that it is not charged twice\. Check the Documents section/,
		);

		const again = await runLibreBor(sim(), order(), { items, workflow, continueOnFail: true });
		expect(again.items[0].error?.message).toContain(
			`sent the order for ${items[0].nif} 2023, and its outcome is not known here`,
		);
		expect(sim().requestsTo('POST', '/v2/documents/order/')).toHaveLength(1);
	});
});
