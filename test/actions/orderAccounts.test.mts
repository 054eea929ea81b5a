// What n8n stores of the orders (the workflow's static data, an execution's flow context, the
// node's rows in n8n's deduplication store) names the LibreBOR account by a hash, never by its
// user or base URL.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { deduplicationStore, type ActionResult } from '../../tools/engine/index.mts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { companies, orderEach, runUntilBalanceRunsOut, savedWorkflow } from './orderRuns.mts';

const sim = useSimulator();

/** The simulator's user, base URL and host: what must not be stored in clear text. */
const clearTexts = () => {
	const { host, hostname } = new URL(sim().baseUrl);
	return [sim().credentials.username, sim().baseUrl, host, hostname];
};

const flowContextOf = (result: ActionResult) =>
	result.run.data.executionData?.contextData.flow as IDataObject | undefined;

describe('Orders: the account in what n8n stores', () => {
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
});
