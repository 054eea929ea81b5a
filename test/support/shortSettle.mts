// Mutation tests only: an order's record settles in half a second instead of a whole one, so that
// the engine tests of the order path run fast enough for each mutant of the order-intent protocol.
// The pause is a module's constant: this replaces the module, and writes no state of the nodes.
import { vi } from 'vitest';

vi.mock('../../nodes/LibreBor/actions/document/order/orderSettle.ts', () => ({
	ORDER_SETTLE_MS: 500,
}));
