// Max Orders per Execution and per Hour: an execution that would place more is refused before
// anything is spent, counting what every run, process and worker of the workflow placed.
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { nodeTypeNameOf } from '../../tools/engine/index.mts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { withClock } from '../support/wallClock.mts';
import {
	companies,
	copyOf,
	HOUR_MS,
	onAnotherWorker,
	order,
	orderEach,
	savedWorkflow,
	twoCompanies,
} from './orderRuns.mts';

const sim = useSimulator();

/** What an execution Max Orders per Hour stops says: `placed` in the last hour, `more` asked, `limit`. */
const hourFull = (placed: number, more: number, limit: number) =>
	`has placed ${placed} document orders in the last hour; ${more} more would pass the limit of ${limit}`;

describe('Orders: the limits', () => {
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

	it('counts Max Orders per Execution across every run of the node in a loop, and sends a repeated order once', async () => {
		const [first, second, third] = companies(3);
		const result = await runLibreBor(sim(), orderEach({ maxOrders: 2 }), {
			items: [first, second, first, third],
			loopBatchSize: 1,
		});
		expect(result.error?.message).toMatch(
			/would place 3 document orders, more than the limit of 2/,
		);
		expect(sim().state.ordersReceived).toBe(2);
		expect(sim().state.documents.map((document) => document.nif)).toEqual([first.nif, second.nif]);
	});

	it('keeps counting Max Orders per Execution for an execution resumed within a day, and forgets it once a day has passed since its last run', async () => {
		const [first, second] = companies(2);
		const resumed = (items: IDataObject[]) =>
			runLibreBor(sim(), orderEach({ maxOrders: 1 }), { items, executionId: 'waited' });
		// Any other execution that orders frees the memory of those idle for a day.
		let others = 2;
		const anotherExecution = () =>
			runLibreBor(sim(), orderEach(), { items: companies(1, others++) });
		await withClock(async (setTime) => {
			const start = Date.now();
			expect((await resumed([first])).error).toBeUndefined();
			setTime(start + 24 * HOUR_MS - 60_000);
			await anotherExecution();
			expect((await resumed([second])).error?.message).toMatch(/more than the limit of 1$/);
			// A day to the millisecond since its last run.
			setTime(start + 48 * HOUR_MS - 60_000);
			await anotherExecution();
			expect((await resumed([second])).error).toBeUndefined();
		});
		expect(sim().state.ordersReceived).toBe(4);
	});

	it('forgets an execution idle for a day even when one that started before it ran since', async () => {
		// A process of its own: the earlier tests' executions ran at other times of the test clock.
		const nodeType = await onAnotherWorker();
		const [first, second, third] = companies(3);
		const execution = (executionId: string, items: IDataObject[]) =>
			runLibreBor(sim(), orderEach({ maxOrders: 1 }), { items, executionId, nodeType });
		await withClock(async (setTime) => {
			const start = Date.now();
			expect((await execution('started-first', [first])).error).toBeUndefined();
			setTime(start + 60_000);
			expect((await execution('started-second', [second])).error).toBeUndefined();
			setTime(start + 23 * HOUR_MS);
			expect((await execution('started-first', [first])).error).toBeUndefined();
			// A day since the second's last run: the next execution frees its memory.
			setTime(start + 24 * HOUR_MS + 60_000);
			await runLibreBor(sim(), orderEach(), { items: companies(1, 3), nodeType });
			expect((await execution('started-second', [third])).error).toBeUndefined();
		});
		expect(sim().state.ordersReceived).toBe(4);
	});

	it('keeps counting Max Orders per Execution for the 1,000 executions of this process last run, and forgets the one before', async () => {
		const nodeType = await onAnotherWorker();
		const [first, second, third, fourth] = companies(4);
		const execution = (executionId: string, items: IDataObject[]) =>
			runLibreBor(sim(), orderEach({ maxOrders: 1 }), { items, executionId, nodeType });
		// Executions that send nothing (no valid NIF): each is one of those the process remembers.
		const others = async (count: number) => {
			for (let index = 0; index < count; index++)
				await runLibreBor(sim(), order({ nif: 'not-a-nif' }), { nodeType });
		};
		expect((await execution('oldest', [first])).error).toBeUndefined();
		expect((await execution('next', [second])).error).toBeUndefined();
		await others(998);
		// The oldest is one of the last 1,000, and becomes the latest.
		expect((await execution('oldest', [third])).error?.message).toMatch(
			/more than the limit of 1$/,
		);
		await others(1);
		expect((await execution('next', [fourth])).error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(3);
	});

	it('does not count an order reused from an earlier execution towards Max Orders per Execution, in a loop', async () => {
		const workflow = savedWorkflow();
		const [earlier, fresh] = companies(2);
		await runLibreBor(sim(), orderEach(), { items: [earlier], workflow });
		const looped = await runLibreBor(sim(), orderEach({ maxOrders: 1 }), {
			items: [earlier, fresh],
			workflow,
			loopBatchSize: 1,
		});
		expect(looped.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('counts towards Max Orders per Execution only the items that would place an order', async () => {
		const result = await runLibreBor(sim(), orderEach({ maxOrders: 1 }), {
			items: [...companies(1), { nif: 'not a NIF' }],
			continueOnFail: true,
		});
		expect(String(jsonOf(result)[1].error)).toMatch(/The NIF "not a NIF" is not valid/);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('refuses 11 orders in one execution and 21 in an hour by default', async () => {
		const workflow = savedWorkflow();
		const refused = await runLibreBor(sim(), orderEach(), { items: companies(11), workflow });
		expect(refused.error?.message).toMatch(
			/would place 11 document orders, more than the limit of 10$/,
		);
		expect(sim().state.ordersReceived).toBe(0);

		for (const from of [0, 10]) {
			const placed = await runLibreBor(sim(), orderEach(), {
				items: companies(10, from),
				workflow,
			});
			expect(placed.error).toBeUndefined();
		}
		const pastTheHour = await runLibreBor(sim(), orderEach(), {
			items: companies(1, 20),
			workflow,
		});
		expect(pastTheHour.error?.message).toMatch(
			/has placed 20 document orders in the last hour; 1 more would pass the limit of 20 per hour/,
		);
		expect(sim().state.ordersReceived).toBe(20);
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

	it('counts Max Orders per Hour over a rolling hour, and only the orders that would be new', async () => {
		const workflow = savedWorkflow();
		const perHour = orderEach({ maxOrdersPerHour: 2, maxOrders: 1 });
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
		const perHour = orderEach({ maxOrdersPerHour: 2 });
		await withClock(async () => {
			await runLibreBor(sim(), perHour, { items: companies(2), workflow });
			const refused = await runLibreBor(sim(), perHour, { items: companies(1, 2), workflow });
			expect(refused.error?.message).toMatch(/has placed 2 document orders in the last hour/);
		});
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('counts an order that failed once towards Max Orders per Hour, refused or failed once placed', async () => {
		const workflow = savedWorkflow();
		const perHour = (options: INodeParameters = {}) =>
			orderEach({ maxOrdersPerHour: 3, ...options });
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

	it('does not count in Max Orders per Hour the orders an execution held but never sent once it stopped', async () => {
		const workflow = savedWorkflow();
		const perHour = orderEach({ maxOrdersPerHour: 3 });
		// The first order is refused (no balance): the run stops, and the two after it are not sent.
		sim().state.balance = 0;
		const stopped = await runLibreBor(sim(), perHour, { items: companies(3), workflow });
		expect(stopped.error).toBeDefined();
		expect(sim().state.ordersReceived).toBe(1);

		sim().state.balance = 100;
		const next = await runLibreBor(sim(), perHour, { items: companies(2, 3), workflow });
		expect(next.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(3);
	});

	it('reuses orders even once this workflow has reached Max Orders per Hour', async () => {
		const workflow = savedWorkflow();
		const items = companies(2);
		await runLibreBor(sim(), orderEach(), { items, workflow });
		const reused = await runLibreBor(sim(), orderEach({ maxOrdersPerHour: 1 }), {
			items,
			workflow,
		});
		expect(jsonOf(reused).map((answer) => answer.reused_order)).toEqual([true, true]);
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('counts in Max Orders per Hour the orders another process placed, as the static data carries them', async () => {
		const workflow = savedWorkflow();
		const perHour = orderEach({ maxOrdersPerHour: 3 });
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
		expect(elsewhere.error?.message).toMatch(hourFull(2, 2, 3));
		expect(sim().state.ordersReceived).toBe(2);
	});

	it("counts each order once when n8n kept another worker's save of the static data over this one's, also two of one millisecond", async () => {
		const workflow = savedWorkflow();
		const perHour = orderEach({ maxOrdersPerHour: 4 });
		const [workerA, workerB] = [await onAnotherWorker(), await onAnotherWorker()];
		await withClock(async (setTime) => {
			const start = Date.now();
			setTime(start);
			const before = copyOf(workflow.staticData);
			await runLibreBor(sim(), perHour, { items: companies(2), workflow, nodeType: workerA });
			// Worker B started from the static data of before, and saved last: n8n keeps B's.
			setTime(start + 1_000);
			const keptByN8n = { id: workflow.id, staticData: before };
			await runLibreBor(sim(), perHour, {
				items: companies(1, 2),
				workflow: keptByN8n,
				nodeType: workerB,
			});
			// A's next execution counts its own two orders and B's, and writes its two back into
			// the static data; a third worker then reads the three there, each once.
			setTime(start + 2_000);
			for (const worker of [workerA, await onAnotherWorker()]) {
				const next = await runLibreBor(sim(), perHour, {
					items: companies(2, 3),
					workflow: keptByN8n,
					nodeType: worker,
				});
				expect(next.error?.message).toMatch(hourFull(3, 2, 4));
			}
		});
		expect(sim().state.ordersReceived).toBe(3);
	});

	it("counts both orders when another worker placed one in the same millisecond as this one's, after reading its save", async () => {
		const workflow = savedWorkflow();
		const perHour = orderEach({ maxOrdersPerHour: 2 });
		const workerA = await onAnotherWorker();
		await withClock(async () => {
			await runLibreBor(sim(), perHour, { items: companies(1), workflow, nodeType: workerA });
			// Worker B loads A's save and orders another company in that same millisecond.
			const savedByB = { id: workflow.id, staticData: copyOf(workflow.staticData) };
			await runLibreBor(sim(), perHour, {
				items: companies(1, 1),
				workflow: savedByB,
				nodeType: await onAnotherWorker(),
			});
			// A knows that time once, the static data twice: two orders.
			const next = await runLibreBor(sim(), perHour, {
				items: companies(1, 2),
				workflow: savedByB,
				nodeType: workerA,
			});
			expect(next.error?.message).toMatch(hourFull(2, 1, 2));
		});
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('keeps counting the latest orders of this process when the static data brings 5,000 older times', async () => {
		const workflow = savedWorkflow();
		const perHour = orderEach({ maxOrdersPerHour: 1 });
		const [placed, next] = companies(2);
		await withClock(async (setTime) => {
			const start = Date.now();
			setTime(start);
			await runLibreBor(sim(), perHour, { items: [placed], workflow });
			// Another worker's save, which n8n kept: 5,000 orders of half an hour before.
			const older = Array.from({ length: 5_000 }, (_, index) => start - 30 * 60_000 + index);
			workflow.staticData = { global: { libreBorOrders: { orders: {}, placedAt: older } } };
			setTime(start + 60_000);
			const reused = await runLibreBor(sim(), perHour, { items: [placed], workflow });
			expect(jsonOf(reused)[0].reused_order).toBe(true);
			// The older orders have left the hour; this process's order has not.
			setTime(start + 31 * 60_000);
			const refused = await runLibreBor(sim(), perHour, { items: [next], workflow });
			expect(refused.error?.message).toMatch(/has placed 1 document orders in the last hour/);
		});
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('counts an order for exactly one hour, and not at the hour', async () => {
		const workflow = savedWorkflow();
		const perHour = orderEach({ maxOrdersPerHour: 1 });
		await withClock(async (setTime) => {
			const start = Date.now();
			setTime(start);
			await runLibreBor(sim(), perHour, { items: companies(1), workflow });
			setTime(start + HOUR_MS - 1);
			const refused = await runLibreBor(sim(), perHour, { items: companies(1, 1), workflow });
			expect(refused.error?.message).toMatch(/has placed 1 document orders in the last hour/);
			setTime(start + HOUR_MS);
			const placed = await runLibreBor(sim(), perHour, { items: companies(1, 1), workflow });
			expect(placed.error).toBeUndefined();
		});
		expect(sim().state.ordersReceived).toBe(2);
	});

	it('keeps the times of at most 5,000 orders of the last hour in the static data n8n saves, and counts those', async () => {
		// n8n saves the static data with every execution: it holds the latest 5,000 order times,
		// so Max Orders per Hour counts at most 5,000 orders placed before the execution.
		const start = Date.now() - 30 * 60_000;
		const times = Array.from({ length: 6_000 }, (_, index) => start + index);
		const workflow = savedWorkflow();
		type Memory = { global: { libreBorOrders: { placedAt: number[] } } };
		const placedAt = () => (workflow.staticData as Memory).global.libreBorOrders.placedAt;
		workflow.staticData = { global: { libreBorOrders: { orders: {}, placedAt: times } } };

		const refused = await runLibreBor(sim(), orderEach({ maxOrdersPerHour: 5_000 }), {
			items: companies(1),
			workflow,
			nodeType: await onAnotherWorker(),
		});
		expect(refused.error?.message).toMatch(hourFull(5000, 1, 5000));
		expect(sim().state.ordersReceived).toBe(0);

		const placed = await runLibreBor(sim(), orderEach({ maxOrdersPerHour: 5_001 }), {
			items: companies(1),
			workflow,
			nodeType: await onAnotherWorker(),
		});
		expect(placed.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(1);
		// The latest 5,000 known when the execution started, and its own order's.
		expect(placedAt()).toHaveLength(5_001);
		expect(placedAt().slice(0, 5_000)).toEqual(times.slice(1_000));
		expect(placedAt()[5_000]).toBeGreaterThanOrEqual(times.at(-1)!);
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

	it.each([
		['Poll Interval (Seconds)', { waitForCompletion: true, pollInterval: 0 }, 1, 60, '0'],
		['Max Wait (Seconds)', { waitForCompletion: true, maxWait: -5 }, 0, 1800, '-5'],
		['Max Download Size (MB)', { download: true, maxDownloadMb: 0 }, 0.01, 100, '0'],
	])(
		'refuses, before ordering, a %s out of range, naming it and its default',
		async (label, options, minimum, fallback, given) => {
			const result = await runLibreBor(sim(), order({}, options));
			expect(result.error?.message).toBe(
				`"${label}" must be a number of at least ${minimum}, not "${given}"`,
			);
			expect((result.error as { description?: string }).description).toBe(
				`No order was sent and nothing was downloaded for this item. Set "${label}" in the node options to a number of at least ${minimum} (default ${fallback}), or fix the expression that sets it.`,
			);
			expect(sim().state.ordersReceived).toBe(0);
		},
	);

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
