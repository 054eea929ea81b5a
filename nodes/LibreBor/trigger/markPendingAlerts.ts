import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { now } from '../time/clock';
import type { NodeRun, PollingFunctions } from '../run/nodeRun';
import { markAlertReadIfUnread } from '../api/alerts';

/** Well within the shortest poll interval n8n allows (one minute). */
const MAX_MARKING_MS = 30_000;

interface MarkOutcome {
	/** Alerts now read: they will not be listed again. */
	read: Set<string>;
	/** Alerts to try again at the next poll. */
	stillPending: string[];
}

/**
 * Marks alerts as read one by one (never "mark all", which would also hide alerts that arrived
 * since the last listing), more at once as marks succeed: one, then one more for each mark done,
 * up to the poll's Parallel Requests, its pacer deciding what is in flight. At the first failure
 * no more marks start, as the service is then likely unavailable, and none starts once the
 * marking time is up, to keep the poll short; whatever is left is tried again next poll. A failed
 * alert goes last so that it cannot hold back the others for ever.
 */
export async function markPendingAlerts(
	this: PollingFunctions,
	pending: string[],
	run: NodeRun,
): Promise<MarkOutcome> {
	if (pending.length === 0) return { read: new Set(), stillPending: [] };
	// The poll's pacer carries its time budget (the scheduler's, when it gives one).
	const { budgetMs, ceiling } = run.pacer.settings;
	const deadline = now() + Math.min(budgetMs / 2, MAX_MARKING_MS);
	const read: string[] = [];
	const failed: string[] = [];
	let next = 0;
	const marking: Array<Promise<void>> = [];
	const markNext = async (): Promise<void> => {
		if (next >= pending.length || failed.length > 0 || now() > deadline) return;
		const alertId = pending[next++];
		if (!(await markOne.call(this, alertId, run))) {
			failed.push(alertId);
			return;
		}
		read.push(alertId);
		if (marking.length < ceiling) marking.push(markNext());
		await markNext();
	};
	marking.push(markNext());
	// Marks started meanwhile join the list: wait until none is left running.
	for (let waited = 0; waited < marking.length; ) {
		const running = marking.slice(waited);
		waited += running.length;
		await Promise.all(running);
	}
	const settled = new Set([...read, ...failed]);
	return {
		read: new Set(read),
		stillPending: [...pending.filter((id) => !settled.has(id)), ...failed],
	};
}

/** Whether LibreBOR marked the alert; a refusal is logged and tried again at the next poll. */
async function markOne(this: PollingFunctions, alertId: string, run: NodeRun) {
	try {
		await markAlertReadIfUnread.call(this, alertId, { run });
		return true;
	} catch (error) {
		if (!(error instanceof NodeApiError))
			throw new NodeOperationError(this.getNode(), error as Error);
		this.logger.warn(
			`LibreBOR Trigger could not mark alert ${alertId} as read; it will try again at the next poll: ${error.message}`,
			{ description: error.description ?? undefined },
		);
		return false;
	}
}
