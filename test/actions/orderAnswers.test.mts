// Answers to an order that do not plainly say it was placed: it is never sent again by itself, and
// the error says whether it may have been placed and where to look.
import { describe, expect, it } from 'vitest';

import { runLibreBor, useSimulator } from '../support/libreBor.mts';
import {
	answerNextOrder,
	companies,
	order,
	ORDER_REQUEST,
	orderEach,
	savedWorkflow,
} from './orderRuns.mts';

const sim = useSimulator();
describe('Orders: answers that may hide a placed order', () => {
	it('sends an order whose answer is lost only once, and says it may have been placed', async () => {
		answerNextOrder(sim(), {
			afterHandling: true,
			drop: true,
		});
		const result = await runLibreBor(sim(), order());
		expect(result.error?.message).toMatch(/may have been placed/);
		expect((result.error as { description?: string }).description).toMatch(/Documents section/);
		expect(sim().state.ordersReceived).toBe(1);
		expect(sim().requestsTo('POST', ORDER_REQUEST.path)).toHaveLength(1);
	});

	it('sends an order that times out only once', async () => {
		answerNextOrder(sim(), {
			afterHandling: true,
			delayMs: 3000,
		});
		const result = await runLibreBor(sim(), order({}, { timeout: 0.5 }));
		expect(result.error?.message).toMatch(/may have been placed/);
		expect(sim().requestsTo('POST', ORDER_REQUEST.path)).toHaveLength(1);
	});

	it('says an order may have been placed when LibreBOR answers it with a server error', async () => {
		answerNextOrder(sim(), {
			afterHandling: true,
			status: 502,
			body: '<html>Bad Gateway</html>',
			contentType: 'text/html',
		});
		const result = await runLibreBor(sim(), order());
		expect(result.error?.message).toMatch(/may have been placed/);
		expect(sim().state.ordersReceived).toBe(1);
	});
});

describe('Orders: refusals and answers the API contract does not show', () => {
	// The contract does not say how LibreBOR refuses an order without balance: the simulator answers
	// 402; the real service may answer another 4xx, or a 2xx that says it failed.
	const noBalance = (status: number) =>
		answerNextOrder(sim(), {
			status,
			body: JSON.stringify({ result: 'error', message: 'Insufficient balance.' }),
		});

	it('is refused with a clear message when the balance is not positive', async () => {
		sim().state.balance = 0;
		const result = await runLibreBor(sim(), order());
		expect(result.error?.message).toMatch(/402/);
		expect((result.error as { description?: string }).description).toMatch(
			/positive prepaid balance/,
		);
	});

	it('never falls back to /order/ after a JSON 404, which may mean an unknown company', async () => {
		answerNextOrder(sim(), {
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

	it('never sends an order again to /order/ after a success answer that is a page, not JSON', async () => {
		answerNextOrder(sim(), {
			status: 200,
			body: '<html>Thank you</html>',
			contentType: 'text/html',
		});
		const result = await runLibreBor(sim(), order());
		expect(result.error?.message).toMatch(/may have been placed: LibreBOR's answer was lost/);
		expect(sim().requestsTo('POST', '/v2/order/')).toHaveLength(0);
	});

	it.each([400, 403, 409])(
		'fails an order refused with %i, shows why, and places it once later',
		async (status) => {
			const workflow = savedWorkflow();
			const items = companies(1);
			noBalance(status);
			const refused = await runLibreBor(sim(), orderEach(), {
				items,
				workflow,
				continueOnFail: true,
			});
			expect(refused.items[0].error?.message).toContain(`(${status})`);
			expect(refused.items[0].error?.description).toContain(
				'LibreBOR said: "Insufficient balance."',
			);

			const placed = await runLibreBor(sim(), orderEach(), { items, workflow });
			expect(placed.error).toBeUndefined();
			expect(sim().state.documents).toHaveLength(1);
		},
	);

	it('says an order answered with a success status but no document may have been placed, and never sends it again by itself', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		noBalance(200);
		const unclear = await runLibreBor(sim(), orderEach(), {
			items,
			workflow,
			continueOnFail: true,
		});
		expect(unclear.items[0].error?.message).toBe(
			`LibreBOR answered the order of the 2023 annual accounts of ${items[0].nif} without a document ID (result "error"): it may have been placed`,
		);
		expect(unclear.items[0].error?.description).toMatch(
			/^LibreBOR said: "Insufficient balance."\. It was not sent again, so that it is not charged twice\. Check the Documents section/,
		);

		const again = await runLibreBor(sim(), orderEach(), { items, workflow, continueOnFail: true });
		expect(again.items[0].error?.message).toContain(
			`sent the order for ${items[0].nif} 2023, and its outcome is not known here`,
		);
		expect(again.items[0].error?.description).toContain(
			"LibreBOR's answer to it was lost or unclear, as that execution's item said",
		);
		expect(sim().requestsTo('POST', ORDER_REQUEST.path)).toHaveLength(1);
	});

	it.each([
		['an empty document ID', { document_id: '' }, /without a document ID: it may have been placed/],
		[
			'a document ID that is no text',
			{ document_id: 42 },
			/without a document ID: it may have been placed/,
		],
		['a list', [{ document_id: 'a1' }], /may have been placed: LibreBOR's answer was lost/],
		['JSON null', null, /may have been placed: LibreBOR's answer was lost/],
		['a text', 'placed', /may have been placed: LibreBOR's answer was lost/],
	])(
		'says an order answered with %s may have been placed, and sends it once',
		async (_kind, answer, said) => {
			answerNextOrder(sim(), {
				status: 200,
				body: JSON.stringify(answer),
			});
			const result = await runLibreBor(sim(), order());
			expect(result.error?.message).toMatch(said);
			expect(sim().requestsTo('POST', ORDER_REQUEST.path)).toHaveLength(1);
		},
	);
});
