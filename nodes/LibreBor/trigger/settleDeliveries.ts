import type { PollingFunctions } from '../run/nodeRun';
import { receiptOf } from './deliveryReceipts';
import type { Delivery } from './pollState';

interface SettledDeliveries {
	/** Alerts (by key) whose execution n8n created: they may be marked as read. */
	stored: string[];
	/** Emissions no execution is known to carry: their alerts are emitted again while LibreBOR lists them. */
	lost: Delivery[];
	/** Emissions this process heard nothing of (n8n restarted since): they may have become executions. */
	unheard: Set<string>;
	/** Emissions whose execution n8n has not reported on yet. */
	waiting: Delivery[];
	/** The receipts the poll's state no longer needs once it is written. */
	spent: string[];
}

/**
 * What became of the earlier emissions whose execution was not known to exist. One that this
 * process heard nothing about, because n8n dropped it or restarted since, counts as lost: n8n may
 * have stopped between saving the state and creating the execution, and an alert emitted twice is
 * better than one never emitted. Receipts are forgotten only once the state that no longer needs
 * them is written: a poll that fails before leaves the next one the same knowledge.
 */
export function settleDeliveries(
	context: PollingFunctions,
	inFlight: Delivery[],
): SettledDeliveries {
	const receipts = inFlight.map((delivery) => ({
		delivery,
		receipt: receiptOf(context, delivery[0]),
	}));
	const heardBack = receipts.filter(({ receipt }) => receipt !== 'waiting');
	const lost = heardBack.filter(({ receipt }) => receipt !== 'stored');
	return {
		stored: heardBack
			.filter(({ receipt }) => receipt === 'stored')
			.flatMap(({ delivery: [, keys] }) => keys),
		lost: lost.map(({ delivery }) => delivery),
		unheard: new Set(
			lost.filter(({ receipt }) => receipt === undefined).map(({ delivery: [token] }) => token),
		),
		waiting: receipts
			.filter(({ receipt }) => receipt === 'waiting')
			.map(({ delivery }) => delivery),
		spent: heardBack.map(({ delivery: [token] }) => token),
	};
}
