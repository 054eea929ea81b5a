// The nodes and the simulator on one virtual clock, so that a test can run a document that takes
// minutes in a moment and read the exact times of the node's checks. A test file puts the nodes on
// it with
//   vi.mock('../../nodes/LibreBor/time/clock.ts', async () => (await import('../support/virtualClock.mts')).nodeClock);
// and gives the simulator `{ clock: virtualClock }`.
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { setTimeout as realSleep } from 'node:timers/promises';

import type { INodeParameters } from 'n8n-workflow';

import type { Simulator } from '../../tools/simulator/index.mts';
import { nodeClock, virtualClock } from './virtualClock.mts';
import { runLibreBor, type RunOptions } from './libreBor.mts';

export { nodeClock, virtualClock };

/** Lets the work pending at this moment run (what the clock woke, stream events), the clock standing still. */
export async function pendingWorkRun(): Promise<void> {
	await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits for `work` while moving the virtual clock: whenever something waits on the clock, the
 * clock jumps to the first wake. For one item that waits for a document (and downloads nothing:
 * a download's deadline waits on the clock while the transfer runs), something waits on the
 * clock only while the node is idle, so the clock stands still during every request.
 */
export async function inVirtualTime<T>(
	work: Promise<T>,
	/** Asked before each jump; false leaves the clock where it is this once. */
	beforeJump: (wakeAt: number) => boolean = () => true,
): Promise<T> {
	let done = false;
	const finished = work.finally(() => (done = true));
	while (!done) {
		await realSleep(2);
		const wakeAt = virtualClock.nextWakeAt;
		if (wakeAt !== undefined && beforeJump(wakeAt)) virtualClock.set(wakeAt);
	}
	return await finished;
}

/**
 * HTTP requests this process has made and not yet read the whole answer of (or seen fail), counted
 * from the moment each is created: `http.client.request.start` comes only once the request is
 * written to a connected socket, and a request still connecting (slowly, on a busy machine) is
 * neither counted there nor held by the simulator, so the clock would jump without it.
 */
let httpInFlight = 0;
const open = new WeakSet<ClientRequest>();
const done = (request: ClientRequest) => {
	if (open.delete(request)) httpInFlight--;
};
subscribe('http.client.request.created', (message) => {
	const { request } = message as { request: ClientRequest };
	open.add(request);
	httpInFlight++;
});
subscribe('http.client.request.error', (message) =>
	done((message as { request: ClientRequest }).request),
);
subscribe('http.client.response.finish', (message) => {
	const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
	response.once('end', () => done(request));
	response.once('close', () => done(request));
});

/**
 * For `inVirtualTime` when many requests run side by side, each taking the simulator's latency
 * (`latencyMs`) on the virtual clock: the clock jumps only once every request in flight waits at
 * the simulator, on two looks in a row, so a request takes exactly its latency in virtual time
 * however slowly the machine runs it.
 */
export function onlyWhenRequestsWait(simulator: () => Simulator): (wakeAt: number) => boolean {
	let settledAt: number | undefined;
	return (wakeAt) => {
		const settled = httpInFlight === simulator().traffic.holding;
		const twice = settled && settledAt === wakeAt;
		settledAt = settled ? wakeAt : undefined;
		return twice;
	};
}

/** Runs the action node on the virtual clock, its requests side by side (see onlyWhenRequestsWait). */
export async function runInVirtualTime(
	simulator: () => Simulator,
	parameters: INodeParameters,
	options?: RunOptions,
) {
	return await inVirtualTime(
		runLibreBor(simulator(), parameters, options),
		onlyWhenRequestsWait(simulator),
	);
}
