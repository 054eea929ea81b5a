import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSimulator, type Simulator } from '../../tools/simulator/index.mts';
import { nodeOutputJson } from '../../tools/n8n/executionRun.mts';
import { libreBorCredential, libreBor } from '../../tools/n8n/libreBorN8n.mts';
import { startN8nWithLibreBor, type N8nWithLibreBor } from './n8nWithLibreBor.mts';
import type { ExecutionDetails } from '../../tools/n8n/n8nRestClient.mts';
import {
	everyFewSeconds,
	jsonItem,
	noOp,
	splitOut,
	stopAndError,
	workflow,
} from '../../tools/n8n/workflowBuilder.mts';

const setupTimeoutMs = 600_000;
const testTimeoutMs = 300_000;

const year = new Date().getUTCFullYear() - 1;
const order = (name: string) =>
	libreBor(name, { resource: 'document', operation: 'order', nif: '={{ $json.nif }}', year });
const rows = (...nifs: string[]) => ({ rows: nifs.map((nif) => ({ nif })) });

/** Orders, then a notification step that fails: the execution fails after paying. */
const failsAfterOrdering = workflow(
	'libreBorOrdRetry1',
	'LibreBOR: order, then a failing step',
	[
		everyFewSeconds('Schedule', 5),
		jsonItem('Companies', rows('B64717838', 'A86212420')),
		splitOut('One Item per Company', 'rows'),
		order('Order'),
		stopAndError('Notify', 'The notification service is down'),
	],
	[['Schedule', 'Companies', 'One Item per Company', 'Order', 'Notify']],
);

/** Orders three documents; the third is refused (no balance left), failing the execution. */
const failsWhileOrdering = workflow(
	'libreBorOrdRetry2',
	'LibreBOR: the Order node fails mid-items',
	[
		everyFewSeconds('Schedule', 5),
		jsonItem('Companies', rows('B64717838', 'A86212420', 'J99216582')),
		splitOut('One Item per Company', 'rows'),
		order('Order'),
		noOp('Done'),
	],
	[['Schedule', 'Companies', 'One Item per Company', 'Order', 'Done']],
);

describe('Orders of a published workflow, across executions and retries in a real n8n', () => {
	let n8n: N8nWithLibreBor;
	let afterOrdering: Simulator;
	let whileOrdering: Simulator;

	/** Publishes the workflow until its schedule has run it once, and returns that production execution. */
	async function runOnceInProduction(
		workflowId: string,
		previousRuns = 0,
	): Promise<ExecutionDetails> {
		await n8n.rest.activateWorkflow(workflowId);
		const runs = await n8n.rest.waitForExecutions(workflowId, previousRuns + 1, {
			mode: 'trigger',
		});
		await n8n.rest.deactivateWorkflow(workflowId);
		return runs[previousRuns];
	}

	async function retry(executionId: string, loadWorkflow: boolean): Promise<ExecutionDetails> {
		const answer = await n8n.rest.request<{ id: string }>(
			'POST',
			`/rest/executions/${executionId}/retry`,
			{ loadWorkflow },
		);
		return await n8n.rest.waitForExecution(answer.id);
	}

	const documentIds = (sim: Simulator) => sim.state.documents.map((document) => document.id);

	beforeAll(async () => {
		[afterOrdering, whileOrdering] = await Promise.all([startSimulator(), startSimulator()]);
		const credentials = [
			{ sim: afterOrdering, ref: { id: 'libreborOrdRetry1', name: 'LibreBOR retry 1' } },
			{ sim: whileOrdering, ref: { id: 'libreborOrdRetry2', name: 'LibreBOR retry 2' } },
		];
		const withCredential = (
			definition: typeof failsAfterOrdering,
			credential: { id: string; name: string },
		) => ({
			...definition,
			nodes: definition.nodes.map((node) =>
				node.credentials ? { ...node, credentials: { libreBorApi: credential } } : node,
			),
		});
		n8n = await startN8nWithLibreBor({
			credentials: credentials.map(({ sim, ref }) => libreBorCredential(sim, ref)),
			workflows: [
				withCredential(failsAfterOrdering, credentials[0].ref),
				withCredential(failsWhileOrdering, credentials[1].ref),
			],
		});
	}, setupTimeoutMs);

	afterAll(async () => {
		await n8n?.remove();
		await Promise.all([afterOrdering?.close(), whileOrdering?.close()]);
	}, testTimeoutMs);

	it(
		'does not order again when a failed execution is retried, with the original or the current workflow',
		async () => {
			const failed = await runOnceInProduction(failsAfterOrdering.id);
			expect(failed.status).toBe('error');
			const placed = documentIds(afterOrdering);
			expect(placed).toHaveLength(2);

			const withOriginal = await retry(failed.id, false);
			const withCurrent = await retry(withOriginal.id, true);
			for (const retried of [withOriginal, withCurrent]) {
				expect(retried).toMatchObject({ mode: 'retry', status: 'error' });
				expect(nodeOutputJson(retried.run, 'Order').map((answer) => answer.document_id)).toEqual(
					placed,
				);
			}
			expect(documentIds(afterOrdering)).toEqual(placed);
		},
		testTimeoutMs,
	);

	it(
		'reuses the orders placed before the Order node failed, in a retry after a restart and in later executions',
		async () => {
			whileOrdering.state.balance = 2 * whileOrdering.state.orderPrice;
			const failed = await runOnceInProduction(failsWhileOrdering.id);
			expect(failed.status).toBe('error');
			const placed = documentIds(whileOrdering);
			expect(placed).toHaveLength(2);

			// A new n8n process: nothing is left in memory; the retry finds the orders in the execution's data.
			await n8n.stop();
			await n8n.start();
			whileOrdering.state.balance = 100 * whileOrdering.state.orderPrice;
			const retried = await retry(failed.id, false);
			expect(retried.status).toBe('success');
			const output = nodeOutputJson(retried.run, 'Order');
			expect(
				output.map((answer: IDataObject) => [answer.document_id, answer.reused_order ?? false]),
			).toEqual([
				[placed[0], true],
				[placed[1], true],
				[documentIds(whileOrdering)[2], false],
			]);
			expect(documentIds(whileOrdering)).toHaveLength(3);

			// A later execution of the workflow: the first two from the static data n8n saved, the third from this process.
			const productionRunsSoFar = (
				await n8n.rest.listExecutions({ workflowId: failsWhileOrdering.id, mode: 'trigger' })
			).length;
			const later = await runOnceInProduction(failsWhileOrdering.id, productionRunsSoFar);
			expect(later.status).toBe('success');
			expect(
				nodeOutputJson(later.run, 'Order').map((answer) => [
					answer.document_id,
					answer.reused_order,
				]),
			).toEqual(documentIds(whileOrdering).map((id) => [id, true]));
			expect(documentIds(whileOrdering)).toHaveLength(3);
		},
		testTimeoutMs,
	);
});
