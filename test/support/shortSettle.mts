// Mutation tests only: an order's record settles in half a second instead of a whole one, so that
// the engine tests of the order path run fast enough for each mutant of the order-intent protocol.
// Nodes loaded afresh (a test's "other worker") keep the real pause.
import { settling } from '../../nodes/LibreBor/actions/document/order/orderIntents.ts';

settling.ms = 500;
