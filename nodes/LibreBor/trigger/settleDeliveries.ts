import type { IPollFunctions } from 'n8n-workflow';

import { receiptOf } from './deliveryReceipts';
import type { Delivery } from './pollState';

interface SettledDeliveries {
	/** Alerts (by key) whose execution n8n created: they may be marked as read. */
	stored: string[];
	/** Alerts no execution is known to carry: they are emitted again while LibreBOR lists them. */
	lost: Set<string>;
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
export function settleDeliveries(context: IPollFunctions, inFlight: Delivery[]): SettledDeliveries {
	const settled: SettledDeliveries = { stored: [], lost: new Set(), waiting: [], spent: [] };
	for (const [token, keys] of inFlight) {
		const receipt = receiptOf(context, token);
		if (receipt === 'waiting') {
			settled.waiting.push([token, keys]);
			continue;
		}
		settled.spent.push(token);
		if (receipt === 'stored') settled.stored.push(...keys);
		else for (const key of keys) settled.lost.add(key);
	}
	return settled;
}
