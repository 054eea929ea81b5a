/**
 * How long an attempt waits between writing its record of an order and checking it (see
 * orderIntents.ts). Assumed to be longer than any read-then-write of the row that started before
 * its own write ended: one takes milliseconds (attempts that raced on two queue-mode workers sent
 * their orders 61 to 146 ms apart); a second leaves room for a worker that is busy or collecting
 * garbage, and is little beside an order that LibreBOR takes minutes to prepare. It is paid once
 * per order sent. A module of its own, so that the mutation tests can shorten it
 * (test/support/shortSettle.mts): a second per order makes every mutant of the protocol time out.
 */
export const ORDER_SETTLE_MS = 1000;
