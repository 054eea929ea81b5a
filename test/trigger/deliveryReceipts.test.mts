// What the trigger hears of an emission, one answer of n8n at a time: the execution n8n created
// for it (finished, or cancelled with its own error), or none; what it passes on to n8n's own
// listener; and how many receipts it keeps. stops.test.mts runs it through n8n's poll loop whole.
import type { IPollFunctions, IRun } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	emitWithReceipt,
	forgetReceipt,
	receiptOf,
} from '../../nodes/LibreBor/trigger/deliveryReceipts.ts';

type Emit = IPollFunctions['__emit'];
type DonePromise = NonNullable<Parameters<Emit>[2]>;

let triggers = 0;

/** The part of n8n's poll context the receipts use, for a trigger no other test uses. */
function pollContext() {
	const nodeId = `trigger-${++triggers}`;
	const handed: DonePromise[] = [];
	const n8nEmit: Emit = (_data, _response, donePromise) => {
		if (donePromise) handed.push(donePromise);
	};
	const context = {
		__emit: n8nEmit,
		getWorkflow: () => ({ id: 'workflow' }),
		getNode: () => ({ id: nodeId }),
	} as unknown as IPollFunctions;
	/** Emits one poll's items through whatever `__emit` the trigger left, as n8n does. */
	const emit = (listener?: DonePromise) => context.__emit([[{ json: {} }]], undefined, listener);
	return { context, handed, emit, n8nEmit };
}

const settle = async () => await new Promise((resolve) => setImmediate(resolve));

describe('the receipt of an emission', () => {
	it('is waiting once n8n has the items, and stored once their execution has finished', async () => {
		const { context, handed, emit } = pollContext();
		emitWithReceipt(context, 'token');
		expect(receiptOf(context, 'token')).toBeUndefined();
		emit();
		expect(receiptOf(context, 'token')).toBe('waiting');
		handed[0].resolve({} as IRun);
		await settle();
		expect(receiptOf(context, 'token')).toBe('stored');
	});

	it("is stored when n8n rejects with an execution's own error, and not stored otherwise", async () => {
		const { context, handed, emit } = pollContext();
		for (const token of ['cancelled', 'dropped', 'no extra']) {
			emitWithReceipt(context, token);
			emit();
		}
		handed[0].reject(Object.assign(new Error('cancelled'), { extra: { executionId: '7' } }));
		handed[1].reject(Object.assign(new Error('no execution'), { extra: null }));
		handed[2].reject(new Error('no execution'));
		await settle();
		expect(['cancelled', 'dropped', 'no extra'].map((token) => receiptOf(context, token))).toEqual([
			'stored',
			'notStored',
			'notStored',
		]);
	});

	it("passes n8n's answer on to the listener the items came with", async () => {
		const { context, handed, emit } = pollContext();
		const heard: string[] = [];
		const listener = {
			resolve: () => heard.push('resolved'),
			reject: (error: Error) => heard.push(error.message),
		} as unknown as DonePromise;
		emitWithReceipt(context, 'first');
		emit(listener);
		emitWithReceipt(context, 'second');
		emit(listener);
		handed[0].resolve({} as IRun);
		handed[1].reject(new Error('failed'));
		await settle();
		expect(heard).toEqual(['resolved', 'failed']);
	});

	it("wraps n8n's emit for one emission only, and undoes a wrapper n8n never called", () => {
		const { context, emit, n8nEmit } = pollContext();
		emitWithReceipt(context, 'dropped');
		emitWithReceipt(context, 'next');
		emit();
		expect(context.__emit).toBe(n8nEmit);
		expect(receiptOf(context, 'dropped')).toBeUndefined();
		expect(receiptOf(context, 'next')).toBe('waiting');
	});

	it('is gone once forgotten, and the oldest go past 10,000', () => {
		const { context, emit } = pollContext();
		for (let token = 0; token <= 10_000; token++) {
			emitWithReceipt(context, String(token));
			emit();
		}
		expect(receiptOf(context, '0')).toBeUndefined();
		expect(receiptOf(context, '1')).toBe('waiting');
		forgetReceipt(context, '1');
		expect(receiptOf(context, '1')).toBeUndefined();
		expect(receiptOf(context, '10000')).toBe('waiting');
	});
});
