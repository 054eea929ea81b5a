// The LibreBOR account of the orders: what n8n stores of them (the workflow's static data, an
// execution's flow context, the node's rows in n8n's deduplication store) names it by a hash, never
// by its user or base URL, and the orders of two accounts of one workflow stay apart.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { deduplicationStore, type ActionResult } from '../../tools/engine/index.mts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { companies, orderEach, runUntilBalanceRunsOut, savedWorkflow } from './orderRuns.mts';

const sim = useSimulator();
const otherAccount = useSimulator();

/** The simulator's user, base URL and host: what must not be stored in clear text. */
const clearTexts = () => {
	const { host, hostname } = new URL(sim().baseUrl);
	return [sim().credentials.username, sim().baseUrl, host, hostname];
};

const flowContextOf = (result: ActionResult) =>
	result.run.data.executionData?.contextData.flow as IDataObject | undefined;

describe('Orders: the LibreBOR account', () => {
	it('stores neither the user nor the base URL in the static data, the flow context or the deduplication store', async () => {
		const workflow = savedWorkflow();
		const items = companies(3);
		const failed = await runUntilBalanceRunsOut(sim(), items, workflow, 2);
		sim().state.balance = 100;
		const retried = await runLibreBor(sim(), orderEach(), { retryOf: failed, workflow });
		const again = await runLibreBor(sim(), orderEach(), { items, workflow });
		expect(jsonOf(again).map((answer) => answer.reused_order)).toEqual([true, true, true]);
		expect(sim().state.documents).toHaveLength(3);

		const stored = {
			staticData: workflow.staticData,
			flowContexts: [failed, retried, again].map(flowContextOf),
			deduplication: deduplicationStore.valuesOfWorkflow(workflow.id),
		};
		// What is read holds the orders: three in the static data, records in n8n's store.
		const memory = (workflow.staticData.global as IDataObject).libreBorOrders as IDataObject;
		expect(Object.keys(memory.orders as IDataObject)).toHaveLength(3);
		expect(Object.keys(stored.flowContexts[1]?.libreBorOrders as IDataObject)).not.toHaveLength(0);
		expect(stored.deduplication.length).toBeGreaterThanOrEqual(6);
		const text = JSON.stringify(stored);
		for (const clear of clearTexts()) expect(text).not.toContain(clear);
	});

	it('keeps the orders of one LibreBOR account from another account used by the same workflow', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		await runLibreBor(sim(), orderEach(), { items, workflow });
		const result = await runLibreBor(otherAccount(), orderEach(), {
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
		const otherUser = await runLibreBor(sim(), orderEach(), {
			items,
			workflow,
			credentials: { username: 'other-user' },
			continueOnFail: true,
		});
		expect(otherUser.items[0].error?.message).toContain('(401)');
	});

	it('reuses an order of one account however many orders another account of the workflow placed since', async () => {
		const workflow = savedWorkflow();
		const items = companies(1);
		await runLibreBor(sim(), orderEach(), { items, workflow });
		await runLibreBor(otherAccount(), orderEach(), { items: companies(1, 1), workflow });
		type Memory = { global: { libreBorOrders: { orders: Record<string, IDataObject> } } };
		const { orders } = (workflow.staticData as Memory).global.libreBorOrders;
		const [[otherKey, otherOrder]] = Object.entries(orders).slice(1);
		const otherAccountKey = otherKey.slice(0, otherKey.indexOf('#') + 1);
		// 5,000 more orders of the other account, as another worker's executions saved them.
		for (let index = 0; index < 5_000; index++)
			orders[`${otherAccountKey}X${index}/2023`] = { ...otherOrder, documentId: `other-${index}` };

		const reused = await runLibreBor(sim(), orderEach(), { items, workflow });
		expect(jsonOf(reused)[0]).toMatchObject({
			document_id: sim().state.documents[0].id,
			reused_order: true,
		});
		expect(sim().state.ordersReceived).toBe(1);
	});
});
