// Mutation tests only: an order's record settles in half a second instead of a whole one, so that
// the engine tests of the order path run fast enough for each mutant of the order-intent protocol.
// The pause is the constant of a module of its own: the nodes a test file imports get a stand-in
// for that module, which writes no state of theirs. Nodes loaded afresh by a test (its "other
// worker") load the module itself again, and keep the real pause.
import { beforeAll, vi } from 'vitest';

const settleModule = '../../nodes/LibreBor/actions/document/order/orderSettle.ts';

vi.doMock(settleModule, () => ({ ORDER_SETTLE_MS: 500 }));
beforeAll(() => vi.doUnmock(settleModule));
