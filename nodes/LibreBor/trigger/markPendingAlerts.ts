import { NodeApiError, NodeOperationError, type IPollFunctions } from 'n8n-workflow';

import { now } from '../helpers/clock';
import type { NodeRun } from '../helpers/nodeRun';
import { markAlertReadIfUnread } from '../api/alerts';

/** Well within the shortest poll interval n8n allows (one minute). */
const MAX_MARKING_MS = 30_000;

interface MarkOutcome {
	/** Alerts now read: they will not be listed again. */
	read: string[];
	/** Alerts to try again at the next poll. */
	stillPending: string[];
}

/**
 * Marks the alerts emitted by earlier polls as read, one by one (never "mark all", which would
 * also hide alerts that arrived since the last listing). It stops at the first failure, as the
 * service is then likely unavailable, and stops in time to keep the poll short; whatever is
 * left is tried again next poll. The failed alert goes last so that it cannot hold back the
 * others for ever.
 */
export async function markPendingAlerts(
	this: IPollFunctions,
	pending: string[],
	run: NodeRun,
): Promise<MarkOutcome> {
	// The poll's pacer carries its time budget (the scheduler's, when it gives one).
	const { budgetMs } = run.pacer.settings;
	const deadline = now() + Math.min(budgetMs / 2, MAX_MARKING_MS);
	const read: string[] = [];
	for (let index = 0; index < pending.length; index++) {
		if (now() > deadline) return { read, stillPending: pending.slice(index) };
		const alertId = pending[index];
		try {
			await markAlertReadIfUnread.call(this, alertId, { run });
			read.push(alertId);
		} catch (error) {
			if (!(error instanceof NodeApiError))
				throw new NodeOperationError(this.getNode(), error as Error);
			this.logger.warn(
				`LibreBOR Trigger could not mark alert ${alertId} as read; it will try again at the next poll: ${error.message}`,
				{ description: error.description ?? undefined },
			);
			return { read, stillPending: [...pending.slice(index + 1), alertId] };
		}
	}
	return { read, stillPending: [] };
}
