// Mutation tests only: the nodes' waits take half their time, so that an order's record settles in
// half a second instead of a whole one and the engine tests of the order path run fast enough for
// each mutant of the order-intent protocol. The nodes a test file imports get the clock seam
// (nodes/LibreBor/time/clock.ts) at half time; the time they read stays real. Nodes loaded
// afresh by a test (its "other worker") load the clock module itself again, and wait in full.
import { beforeAll, vi } from 'vitest';

const clockModule = '../../nodes/LibreBor/time/clock.ts';

vi.doMock(clockModule, async () => {
	const real =
		await vi.importActual<typeof import('../../nodes/LibreBor/time/clock.ts')>(clockModule);
	return {
		now: real.now,
		sleep: async (ms: number, signal?: AbortSignal) => await real.sleep(ms / 2, signal),
	};
});
beforeAll(() => vi.doUnmock(clockModule));
