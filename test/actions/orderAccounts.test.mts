// What n8n stores of the orders (the workflow's static data, an execution's flow context, the
// node's rows in n8n's deduplication store) names the LibreBOR account by a hash, never by its
// user or base URL; and the orders that version 0.1.0 kept under the account in clear text are
// still never paid for twice after the upgrade.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { accountKey } from '../../nodes/LibreBor/transport/account.ts';
import { deduplicationStore, type ActionResult } from '../../tools/engine/index.mts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import {
	companies,
	onAnotherWorker,
	orderEach,
	runUntilBalanceRunsOut,
	savedWorkflow,
} from './orderRuns.mts';

const sim = useSimulator();

/** The simulator's user, base URL and host: what must not be stored in clear text. */
const clearTexts = () => {
	const { host, hostname } = new URL(sim().baseUrl);
	return [sim().credentials.username, sim().baseUrl, host, hostname];
};

const flowContextOf = (result: ActionResult) =>
	result.run.data.executionData?.contextData.flow as IDataObject | undefined;

/** The account as version 0.1.0 wrote it where this version writes its hash. */
const inClearText = (text: string) =>
	text.replaceAll(
		accountKey(sim().baseUrl, sim().credentials.username),
		`${sim().baseUrl}|${sim().credentials.username}`,
	);
const asWrittenBy010 = <T,>(data: T) => JSON.parse(inClearText(JSON.stringify(data))) as T;

/**
 * A workflow as version 0.1.0 would have left it after the same runs, under a new id: its static
 * data (or none, as after a killed worker) and its node's rows in n8n's deduplication store.
 */
const leftBy010 = (workflow: { id: string; staticData: IDataObject }, staticData = true) => {
	const id = savedWorkflow().id;
	deduplicationStore.copyRows(workflow.id, id, inClearText);
	return { id, staticData: staticData ? asWrittenBy010(workflow.staticData) : {} };
};

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

describe('Orders: what version 0.1.0 stored, after the upgrade', () => {
	it('reuses an order kept in its static data, on a restarted worker, and keeps it hashed from then on', async () => {
		const workflow = savedWorkflow();
		const [company] = companies(1);
		const first = await runLibreBor(sim(), orderEach(), { items: [company], workflow });
		const upgraded = leftBy010(workflow);
		expect(JSON.stringify(upgraded.staticData)).toContain(sim().credentials.username);

		const after = await runLibreBor(sim(), orderEach(), {
			items: [company],
			workflow: upgraded,
			nodeType: await onAnotherWorker(),
		});
		expect(jsonOf(after)[0]).toMatchObject({
			document_id: jsonOf(first)[0].document_id,
			reused_order: true,
		});
		expect(sim().state.ordersReceived).toBe(1);
		const text = JSON.stringify(upgraded.staticData);
		for (const clear of clearTexts()) expect(text).not.toContain(clear);
	});

	it("refuses an order it recorded in n8n's store when no memory holds its outcome, and adds no clear text there", async () => {
		const workflow = savedWorkflow();
		const [company] = companies(1);
		await runLibreBor(sim(), orderEach(), { items: [company], workflow });
		// A worker killed after sending the order: its record is all that is left of it.
		const upgraded = leftBy010(workflow, false);
		const recorded = deduplicationStore.valuesOfWorkflow(upgraded.id);

		const after = await runLibreBor(sim(), orderEach(), {
			items: [company],
			workflow: upgraded,
			nodeType: await onAnotherWorker(),
			continueOnFail: true,
		});
		expect(after.items[0].error?.message).toContain(
			`Another execution of this workflow sent the order for ${company.nif} 2023`,
		);
		expect(sim().state.ordersReceived).toBe(1);
		const clear = deduplicationStore
			.valuesOfWorkflow(upgraded.id)
			.filter((value) => value.includes(sim().credentials.username));
		expect(clear.sort()).toEqual(recorded.sort());
	});

	it("hands a failed execution's orders to n8n's Retry of it after the upgrade, which reuses them", async () => {
		const workflow = savedWorkflow();
		const items = companies(2);
		const failed = await runUntilBalanceRunsOut(sim(), items, workflow);
		const upgraded = leftBy010(workflow, false);
		const failedBy010 = { ...failed, run: asWrittenBy010(failed.run) };
		expect(JSON.stringify(flowContextOf(failedBy010))).toContain(sim().credentials.username);

		sim().state.balance = 100;
		const retried = await runLibreBor(sim(), orderEach(), {
			retryOf: failedBy010,
			workflow: upgraded,
			nodeType: await onAnotherWorker(),
		});
		expect(retried.error).toBeUndefined();
		expect(jsonOf(retried).map((answer) => [answer.document_id, answer.reused_order])).toEqual([
			[sim().state.documents[0].id, true],
			[sim().state.documents[1].id, undefined],
		]);
		expect(sim().state.documents).toHaveLength(2);
		const text = JSON.stringify(flowContextOf(retried));
		for (const clear of clearTexts()) expect(text).not.toContain(clear);
	});
});
