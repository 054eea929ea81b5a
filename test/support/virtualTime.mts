// The nodes and the simulator on one virtual clock, so that a test can run a document that takes
// minutes in a moment and read the exact times of the node's checks. A test file puts the nodes on
// it with
//   vi.mock('../../nodes/LibreBor/helpers/clock.ts', async () => (await import('../support/virtualTime.mts')).nodeClock);
// and gives the simulator `{ clock: virtualClock }`.
import { setTimeout as realSleep } from 'node:timers/promises';

import { ManualClock } from '../../tools/simulator/index.mts';

export const virtualClock = new ManualClock();

/** The nodes' clock module (nodes/LibreBor/helpers/clock.ts) on the virtual clock. */
export const nodeClock = {
	now: () => virtualClock.now(),
	sleep: async (ms: number, signal?: AbortSignal) => await virtualClock.sleep(ms, signal),
};

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
