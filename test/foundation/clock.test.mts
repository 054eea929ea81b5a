// The nodes' one source of time: a wait that the execution's cancel can end.
import type { INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { waitUnlessCancelled } from '../../nodes/LibreBor/run/cancellation.ts';
import { sleep } from '../../nodes/LibreBor/time/clock.ts';
import type { RequestSettings } from '../../nodes/LibreBor/run/nodeRun.ts';

describe('Clock', () => {
	it('waits a delay in fractions of a millisecond, as computed gaps and rates give, also when a cancel can end it', async () => {
		const started = performance.now();
		await sleep(20.5, new AbortController().signal);
		expect(performance.now() - started).toBeGreaterThanOrEqual(19);
	});

	it('waits a delay without a signal, as the pacer does between requests', async () => {
		const started = performance.now();
		await sleep(20);
		expect(performance.now() - started).toBeGreaterThanOrEqual(19);
	});

	it('does not wait at all when its signal has already aborted', { timeout: 5_000 }, async () => {
		const started = performance.now();
		await sleep(60_000, AbortSignal.abort());
		expect(performance.now() - started).toBeLessThan(1_000);
	});

	it('ends a wait at once when its signal aborts', async () => {
		const cancel = new AbortController();
		const started = performance.now();
		const waiting = sleep(60_000, cancel.signal);
		cancel.abort();
		await waiting;
		expect(performance.now() - started).toBeLessThan(1_000);
	});
});

describe('A wait of an item', () => {
	it('fails at once, saying what it stopped, when the execution is cancelled meanwhile', async () => {
		const cancel = new AbortController();
		const item = { itemIndex: 2, run: { cancelSignal: cancel.signal } } as RequestSettings;
		const started = performance.now();
		const waiting = waitUnlessCancelled({} as INode, item, 60_000, 'Waiting for document d1');
		cancel.abort();
		await expect(waiting).rejects.toMatchObject({
			message: 'Waiting for document d1 was stopped because the execution was cancelled',
			context: { itemIndex: 2 },
		});
		expect(performance.now() - started).toBeLessThan(1_000);
	});
});
