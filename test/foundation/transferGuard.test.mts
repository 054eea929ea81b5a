// What bounds one download, step by step on the virtual clock: its deadline, its size limit and
// the execution's cancel, each stopping the request and ending the body with an error, the first
// reason kept; and nothing left to stop it once the transfer is over. downloadLimits.test.mts runs
// whole downloads through it; here each moment is given.
import { PassThrough } from 'node:stream';

import { describe, expect, it, vi } from 'vitest';

import { guardTransfer } from '../../nodes/LibreBor/transport/transferGuard.ts';
import { pendingWorkRun, virtualClock } from '../support/virtualTime.mts';

vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

const DEADLINE_MS = 1_000;
const settle = pendingWorkRun;

async function afterMs(ms: number) {
	virtualClock.advance(ms);
	await settle();
}

/** A guard of a 1 s deadline and a 10-byte limit, watching a body whose received chunks are kept. */
function guarded(cancelSignal?: AbortSignal) {
	const guard = guardTransfer({ deadlineMs: DEADLINE_MS, maxBytes: 10, cancelSignal });
	const body = new PassThrough();
	body.on('error', () => undefined);
	const received: string[] = [];
	body.on('data', (chunk: Buffer) => received.push(chunk.toString()));
	guard.watch(body);
	return { guard, body, received };
}

describe('the guard of one download', () => {
	it('stops the transfer at its deadline, not before', async () => {
		const { guard, body } = guarded();
		await afterMs(DEADLINE_MS - 1);
		expect(guard.stoppedBy).toBeUndefined();
		await afterMs(1);
		expect(guard.stoppedBy).toBe('deadline');
		expect(guard.signal.aborted).toBe(true);
		expect(body.destroyed).toBe(true);
	});

	it('stops past the size limit, and the consumer receives nothing past it', async () => {
		const { guard, body, received } = guarded();
		body.write('123456');
		body.write('1234');
		await settle();
		expect(guard.stoppedBy).toBeUndefined();
		body.write('x');
		await settle();
		expect(guard.stoppedBy).toBe('size');
		expect(received.join('')).toBe('1234561234');
		expect(body.destroyed).toBe(true);
	});

	it('keeps the first reason it stopped for', async () => {
		const { guard, body } = guarded();
		body.write('12345678901');
		await afterMs(DEADLINE_MS);
		expect(guard.stoppedBy).toBe('size');
	});

	it('stops at once for an execution cancelled before the transfer, and ends a body watched after', async () => {
		const cancel = new AbortController();
		cancel.abort();
		const { guard, body } = guarded(cancel.signal);
		expect(guard.stoppedBy).toBe('cancelled');
		expect(guard.signal.aborted).toBe(true);
		expect(body.destroyed).toBe(true);
	});

	it('stops when the execution is cancelled during the transfer', async () => {
		const cancel = new AbortController();
		const { guard, body } = guarded(cancel.signal);
		cancel.abort();
		await settle();
		expect(guard.stoppedBy).toBe('cancelled');
		expect(body.destroyed).toBe(true);
	});

	it('is stopped by nothing once disposed: neither the deadline nor a cancel', async () => {
		const cancel = new AbortController();
		const { guard, body } = guarded(cancel.signal);
		guard.dispose();
		await afterMs(DEADLINE_MS);
		cancel.abort();
		await settle();
		expect(guard.stoppedBy).toBeUndefined();
		expect(body.destroyed).toBe(false);
	});

	it('is disposed by its body closing', async () => {
		const { guard, body } = guarded();
		body.end();
		body.resume();
		await settle();
		await afterMs(DEADLINE_MS);
		expect(guard.stoppedBy).toBeUndefined();
	});

	it('guards a transfer that has no cancel signal', async () => {
		const { guard } = guarded();
		guard.dispose();
		await afterMs(DEADLINE_MS);
		expect(guard.stoppedBy).toBeUndefined();
	});
});
