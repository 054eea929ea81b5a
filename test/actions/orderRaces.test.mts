// Attempts of one workflow at the same order at once, in one process or on several workers, and
// attempts cancelled or killed midway: n8n's deduplication store lets exactly one of them send it.
import { DataDeduplicationService } from 'n8n-core';
import type { ICheckProcessedContextData, IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { deduplicationStore } from '../../tools/engine/index.mts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { withClock } from '../support/wallClock.mts';
import {
	answerNextOrderLate,
	cancelWhileRecording,
	companies,
	HOUR_MS,
	onAnotherWorker,
	order,
	orderEach,
	orderReached,
	savedWorkflow,
	startOfAnHour,
	twoCompanies,
} from './orderRuns.mts';

const sim = useSimulator();
describe('Orders: attempts at once, on one worker or several', () => {
	it('sends one order when two executions of one workflow order the same document at once', async () => {
		const workflow = savedWorkflow();
		answerNextOrderLate(sim(), 500);
		const [one, two] = await Promise.all([
			runLibreBor(sim(), order(), { workflow }),
			runLibreBor(sim(), order(), { workflow: { id: workflow.id, staticData: {} } }),
		]);
		expect(sim().state.ordersReceived).toBe(1);
		expect(jsonOf(two)[0].document_id).toBe(jsonOf(one)[0].document_id);
	});

	it('sends one order when an execution on another worker orders the same document while the first is placing it', async () => {
		const workflow = savedWorkflow();
		answerNextOrderLate(sim(), 800);
		const [workerA, workerB] = [await onAnotherWorker(), await onAnotherWorker()];
		const firstSending = orderReached(sim());
		const first = runLibreBor(sim(), order(), {
			workflow: { id: workflow.id, staticData: {} },
			nodeType: workerA,
		});
		await firstSending;
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

	it("lets an execution waiting on a refused order try it itself, not take it for a dead worker's", async () => {
		const workflow = savedWorkflow();
		sim().state.balance = 0;
		answerNextOrderLate(sim(), 300);
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
});

/** The entries in n8n's store that only one attempt wrote, of a workflow. */
const attemptEntries = (workflowId: string) =>
	deduplicationStore
		.valuesOfWorkflow(workflowId)
		.filter((value) => value.startsWith('librebor-attempt|'));

describe('Orders: attempts cancelled, or whose record fails', () => {
	it('sends nothing when the execution is cancelled while the order is being recorded, and blocks no later run', async () => {
		const workflow = savedWorkflow();
		const writes = vi.spyOn(deduplicationStore, 'checkProcessedAndRecord');
		try {
			await cancelWhileRecording(sim(), order(), { workflow });
			// Its record written, checked once after the cancel, and removed: written no more.
			expect(writes).toHaveBeenCalledTimes(2);
			expect(deduplicationStore.valuesOfWorkflow(workflow.id)).toEqual([]);
		} finally {
			writes.mockRestore();
		}
		// In the same process: nothing there waits for the cancelled order either.
		const placed = await runLibreBor(sim(), order(), {
			workflow: { id: workflow.id, staticData: {} },
		});
		expect(placed.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(1);
	});

	it("stops at once an execution cancelled while it waits on another execution's order of the same document", async () => {
		const workflow = savedWorkflow();
		answerNextOrderLate(sim(), 5_000);
		const firstSending = orderReached(sim());
		const first = runLibreBor(sim(), order(), { workflow });
		await firstSending;
		const started = Date.now();
		// Cancelled while waiting, and while its own order of another company settles.
		const waiting = await Promise.all(
			[[{ nif: 'B64717838' }], twoCompanies].map(
				async (items) =>
					await runLibreBor(sim(), orderEach(), { items, workflow, cancelAfterMs: 300 }),
			),
		);
		for (const { error } of waiting)
			expect(error?.message).toBe('The order was stopped because the execution was cancelled');
		// Well before the answer to the first execution's order, 5 s after it was sent.
		expect(Date.now() - started).toBeLessThan(3_500);
		expect((await first).error).toBeUndefined();
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
		const winnerOrdered = orderReached(sim());
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

	it("sends an order whose record n8n's database wrote in 500 ms, and none whose record took longer", async () => {
		const outcomes: Array<string | undefined> = [];
		const late = savedWorkflow();
		await withClock(async (setTime) => {
			for (const [index, writeMs] of [500, 501].entries()) {
				const slowWrite = deduplicationStore.pauseNextRecord();
				const run = runLibreBor(sim(), orderEach(), {
					items: companies(1, index),
					workflow: writeMs > 500 ? late : savedWorkflow(),
					continueOnFail: true,
				});
				await slowWrite.read;
				setTime(Date.now() + writeMs);
				await slowWrite.write();
				slowWrite.answer();
				outcomes.push((await run).items[0].error?.message);
			}
		});
		expect(outcomes).toEqual([
			undefined,
			`Could not record the order for ${companies(1, 1)[0].nif} 2023 in n8n's database before sending it`,
		]);
		// The late attempt's own entry is gone; the order's may be another attempt's, so they stay.
		expect(attemptEntries(late.id)).toEqual([]);
		expect(deduplicationStore.valuesOfWorkflow(late.id)).toHaveLength(2);
		expect(sim().state.ordersReceived).toBe(1);
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
});

describe('Orders: attempts whose worker died', () => {
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
		await withClock(async (setTime) => {
			const start = startOfAnHour();
			setTime(start);
			await runLibreBor(sim(), order({}, oneHour), { workflow });
			const savedAfterFirst = JSON.stringify(workflow.staticData);
			// Past the window the order is placed again, and that execution's worker dies: n8n keeps
			// the static data of the first execution only.
			setTime(start + 1.2 * HOUR_MS);
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
		});
	});

	it("sends no order again after a worker died, even once a Remove Duplicates node's Clean Database ran", async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		// The worker sends the order, then dies: n8n saves nothing of its execution.
		await runLibreBor(sim(), orderEach(), {
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
		const again = await runLibreBor(sim(), orderEach(), {
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

	it("refuses a dead worker's order for one to two windows only, however often it is tried meanwhile", async () => {
		const workflow = savedWorkflow();
		const oneHour = { orderMemoryHours: 1 };
		const nothingSaved = () => ({ id: workflow.id, staticData: {} });
		await withClock(async (setTime) => {
			const start = startOfAnHour();
			setTime(start);
			await runLibreBor(sim(), order({}, oneHour), {
				workflow: nothingSaved(),
				nodeType: await onAnotherWorker(),
			});
			setTime(start + 1.2 * HOUR_MS);
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
			setTime(start + 2.3 * HOUR_MS);
			const placed = await runLibreBor(sim(), order({}, oneHour), {
				workflow: nothingSaved(),
				nodeType: worker,
			});
			expect(placed.error).toBeUndefined();
			expect(sim().state.ordersReceived).toBe(2);
		});
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
});
