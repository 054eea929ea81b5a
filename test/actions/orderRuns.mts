// What the order tests share: the parameters of an order, companies to order for, saved
// workflows, other workers, LibreBOR's answer to an order and the clock.
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { expect, vi } from 'vitest';

import type { Fault, Simulator } from '../../tools/simulator/index.mts';
import { makeCif } from '../../tools/simulator/nif.mts';
import { runLibreBor } from '../support/libreBor.mts';

export const HOUR_MS = 3_600_000;

/** Document > Order of the 2023 accounts of B64717838, or as `extra` changes it, with `options`. */
export const order = (
	extra: INodeParameters = {},
	options: INodeParameters = {},
): INodeParameters => ({
	resource: 'document',
	operation: 'order',
	nif: 'B64717838',
	year: 2023,
	options,
	...extra,
});

/** Document > Order of the 2023 accounts of each item's NIF, with `options`. */
export const orderEach = (options: INodeParameters = {}): INodeParameters =>
	order({ nif: '={{ $json.nif }}' }, options);

/** Distinct valid NIFs of companies, as items. */
export const companies = (count: number, from = 0) =>
	Array.from({ length: count }, (_, index) => ({
		nif: makeCif('B', String(1_000_000 + from + index)),
	}));

export const twoCompanies = [{ nif: 'B64717838' }, { nif: 'A86212420' }];

/** A workflow saved in n8n: its id, and the static data n8n keeps for it between executions. */
export const savedWorkflow = () => ({
	id: `saved-workflow-${randomUUID()}`,
	staticData: {} as IDataObject,
});

/** Static data as n8n saves it in its database and loads it again. */
export const copyOf = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;

/**
 * A production execution of the workflow ordering each item's company with the balance for only
 * `affordable` orders: LibreBOR refuses the next one (402), which fails the execution.
 */
export async function runUntilBalanceRunsOut(
	simulator: Simulator,
	items: IDataObject[],
	workflow: { id: string; staticData: IDataObject },
	affordable = 1,
) {
	simulator.state.balance = affordable * simulator.state.orderPrice;
	const failed = await runLibreBor(simulator, orderEach(), { items, workflow });
	expect(failed.error?.message).toMatch(/402/);
	return failed;
}

/**
 * Runs the workflow with `parameters` and cancels the execution while its orders are being
 * recorded (before any is sent); a moment later, none has reached LibreBOR.
 */
export async function cancelWhileRecording(
	simulator: Simulator,
	parameters: INodeParameters,
	options: { workflow: { id: string; staticData: IDataObject }; items?: IDataObject[] },
) {
	const cancelled = await runLibreBor(simulator, parameters, {
		...options,
		continueOnFail: true,
		cancelAfterMs: 300,
	});
	expect(cancelled.run.status).toBe('canceled');
	await new Promise((resolve) => setTimeout(resolve, 1_500));
	expect(simulator.state.ordersReceived).toBe(0);
}

/** The node as loaded by another n8n process or worker: none of this process's memory. */
export const onAnotherWorker = async () => {
	vi.resetModules();
	const { LibreBor } = await import('../../nodes/LibreBor/LibreBor.node.ts');
	return new LibreBor();
};

/** The request that places an order. */
export const ORDER_REQUEST = { method: 'POST', path: '/v2/documents/order/' } as const;

/** What LibreBOR does with the next order it receives. */
export const answerNextOrder = (simulator: Simulator, fault: Omit<Fault, 'method' | 'path'>) =>
	simulator.injectFault({ ...ORDER_REQUEST, ...fault });

/** LibreBOR places the next order at once but answers it this much later. */
export const answerNextOrderLate = (simulator: Simulator, delayMs: number) =>
	answerNextOrder(simulator, { afterHandling: true, delayMs });

/** Resolves once the next order has reached LibreBOR, whatever the machine's load. */
export const orderReached = (simulator: Simulator) =>
	new Promise<void>((resolve) => simulator.onRequest(ORDER_REQUEST, () => resolve()));

/** A minute into an hour of the clock: where one-hour Order Memory windows begin. */
export const startOfAnHour = () => Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + 60_000;
