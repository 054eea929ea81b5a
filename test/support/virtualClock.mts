// The virtual clock alone, for `vi.mock` of the nodes' clock module: its factory must import
// nothing that loads the nodes, or the modules loaded meanwhile keep the real clock.
import { ManualClock } from '../../tools/simulator/clock.mts';

export const virtualClock = new ManualClock();

/** The nodes' clock module (nodes/LibreBor/time/clock.ts) on the virtual clock. */
export const nodeClock = {
	now: () => virtualClock.now(),
	sleep: async (ms: number, signal?: AbortSignal) => await virtualClock.sleep(ms, signal),
};
