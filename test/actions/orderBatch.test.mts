// A run records all its new orders in n8n's deduplication store at once, settles them once, and
// sends those whose record held, one at a time: a list of orders pays the one-second settle once,
// and runs that order overlapping lists at the same instant still pay each order once.
import { vi, describe, expect, it } from 'vitest';

import { deduplicationStore } from '../../tools/engine/index.mts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import {
	answerNextOrder,
	cancelWhileRecording,
	companies,
	onAnotherWorker,
	order,
	orderEach,
	runUntilBalanceRunsOut,
	savedWorkflow,
} from './orderRuns.mts';

const sim = useSimulator();
const ANOTHER_EXECUTION = 'Another execution of this workflow sent the order for';

/** How many documents LibreBOR holds for each NIF. */
function documentsPerNif(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const { nif } of sim().state.documents) counts[nif] = (counts[nif] ?? 0) + 1;
	return counts;
}

describe('Orders: the records of a run settle once', () => {
	it("writes n8n's store twice for eight orders, not twice per order, and waits for it once", async () => {
		const items = companies(8);
		const workflow = savedWorkflow();
		const writes = vi.spyOn(deduplicationStore, 'checkProcessedAndRecord');
		// Each call reads the node's whole row and writes it back without a lock.
		const removals = vi.spyOn(deduplicationStore, 'removeProcessed');
		try {
			const started = Date.now();
			const result = await runLibreBor(sim(), orderEach(), { items, workflow });
			const tookMs = Date.now() - started;
			expect(result.error).toBeUndefined();
			expect(sim().state.ordersReceived).toBe(8);
			// One write records the eight orders, one a second later checks them all: three entries
			// an order. Nothing is removed: each record held.
			expect(writes).toHaveBeenCalledTimes(2);
			expect(writes.mock.calls.map(([values]) => values.length)).toEqual([24, 24]);
			expect(removals).not.toHaveBeenCalled();
			// A settle per order would take at least eight seconds.
			expect(tookMs).toBeLessThan(6_000);

			// A run that only reuses orders calls the store not at all.
			const reused = await runLibreBor(sim(), orderEach(), { items, workflow });
			expect(jsonOf(reused).every((answer) => answer.reused_order === true)).toBe(true);
			expect(writes).toHaveBeenCalledTimes(2);
			expect(removals).not.toHaveBeenCalled();
		} finally {
			writes.mockRestore();
			removals.mockRestore();
		}
	});

	it("calls n8n's store not at all with Order Memory 0, also when LibreBOR refuses an order", async () => {
		const writes = vi.spyOn(deduplicationStore, 'checkProcessedAndRecord');
		const removals = vi.spyOn(deduplicationStore, 'removeProcessed');
		try {
			answerNextOrder(sim(), { status: 402 });
			const refused = await runLibreBor(sim(), orderEach({ orderMemoryHours: 0 }), {
				items: companies(2),
				workflow: savedWorkflow(),
				continueOnFail: true,
			});
			expect(String(jsonOf(refused)[0].error)).toMatch(/402/);
			expect(jsonOf(refused)[1]).not.toHaveProperty('error');
			expect(writes).not.toHaveBeenCalled();
			expect(removals).not.toHaveBeenCalled();
		} finally {
			writes.mockRestore();
			removals.mockRestore();
		}
	});

	it('pays each order once when two workers record overlapping lists at the same instant', async () => {
		const workflow = savedWorkflow();
		const [onlyFirst, shared1, shared2, onlySecond] = companies(4);
		const lists = [
			[onlyFirst, shared1, shared2],
			[shared1, shared2, onlySecond],
		];
		// First into a workflow that has no record yet (n8n inserts its row), then into one that has.
		for (const year of [2022, 2023]) {
			sim().reset();
			const workers = [await onAnotherWorker(), await onAnotherWorker()];
			// Both read n8n's record before either writes it back: the last write drops the other's.
			deduplicationStore.readTogether(workers.length);
			const results = await Promise.all(
				lists.map(
					async (items, index) =>
						await runLibreBor(sim(), order({ nif: '={{ $json.nif }}', year }), {
							items: items.map(({ nif }) => ({ nif })),
							workflow: { id: workflow.id, staticData: {} },
							nodeType: workers[index],
							continueOnFail: true,
						}).then((result) => ({ result, items })),
				),
			);
			expect(documentsPerNif(), `year ${year}`).toEqual(
				Object.fromEntries(companies(4).map(({ nif }) => [nif, 1])),
			);
			// Every item either placed its order or says another execution did: none paid twice.
			for (const { result, items } of results) {
				jsonOf(result).forEach((answer, index) => {
					if (answer.error === undefined) expect(answer.document_id).toEqual(expect.any(String));
					else expect(String(answer.error)).toContain(`${ANOTHER_EXECUTION} ${items[index].nif}`);
				});
			}
			// Each shared order was placed by one run and refused by the other.
			for (const shared of [shared1, shared2]) {
				const outcomes = results.map(({ result, items }) =>
					jsonOf(result)[items.indexOf(shared)].error === undefined ? 'placed' : 'refused',
				);
				expect(outcomes.sort()).toEqual(['placed', 'refused']);
			}
		}
	});

	it("sends none of a run's orders when it is cancelled while they settle, and leaves none of its records", async () => {
		const workflow = savedWorkflow();
		const items = companies(3);
		await cancelWhileRecording(sim(), orderEach(), { items, workflow });
		// Another worker, without this process's memory: no record of the cancelled run refuses it.
		const placed = await runLibreBor(sim(), orderEach(), {
			items,
			workflow: { id: workflow.id, staticData: {} },
			nodeType: await onAnotherWorker(),
		});
		expect(placed.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(3);
	});

	it('sends no further order once one is refused, without Continue On Fail, and removes the records of those not sent', async () => {
		const workflow = savedWorkflow();
		const items = companies(3);
		const failed = await runUntilBalanceRunsOut(sim(), items, workflow);
		expect(failed.error?.context.itemIndex).toBe(1);
		// The third order was held, but never sent.
		expect(sim().state.ordersReceived).toBe(2);

		sim().state.balance = 100;
		const later = await runLibreBor(sim(), orderEach(), {
			items,
			workflow: { id: workflow.id, staticData: {} },
			nodeType: await onAnotherWorker(),
			continueOnFail: true,
		});
		// The first was placed, and its record stays: a worker that does not know it refuses it.
		expect(String(jsonOf(later)[0].error)).toContain(`${ANOTHER_EXECUTION} ${items[0].nif}`);
		// The refused one and the one never sent are placed now.
		expect(
			jsonOf(later)
				.slice(1)
				.map((answer) => answer.error),
		).toEqual([undefined, undefined]);
		expect(documentsPerNif()).toEqual(Object.fromEntries(items.map(({ nif }) => [nif, 1])));
	});

	it('lets an execution waiting on an order that another execution in this process held and gave up place it itself', async () => {
		const workflow = savedWorkflow();
		const [refused, givenUp] = companies(2);
		// The first order LibreBOR receives is refused: the first execution stops before sending its second.
		answerNextOrder(sim(), { status: 402 });
		// The first execution has claimed both orders once it records them; the second starts while
		// the first's records settle, and finds the second order being placed.
		const recording = deduplicationStore.pauseNextRecord();
		const firstRun = runLibreBor(sim(), orderEach(), { items: [refused, givenUp], workflow });
		await recording.read;
		await recording.write();
		recording.answer();
		const secondRun = runLibreBor(sim(), orderEach(), {
			items: [givenUp],
			workflow: { id: workflow.id, staticData: {} },
		});
		const [first, second] = await Promise.all([firstRun, secondRun]);
		expect(first.error?.message).toMatch(/402/);
		// The second waited for the first's answer on that order, then placed it: not refused, not stuck.
		expect(second.error).toBeUndefined();
		expect(jsonOf(second)[0].reused_order).toBeUndefined();
		expect(documentsPerNif()).toEqual({ [givenUp.nif]: 1 });
	});
});
