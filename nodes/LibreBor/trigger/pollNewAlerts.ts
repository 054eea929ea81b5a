import { randomUUID } from 'crypto';
import type { INodeExecutionData, IPollFunctions, NodeApiError } from 'n8n-workflow';

import { listUnreadAlerts } from '../api/alerts';
import type { LibreBorAlert } from '../helpers/alerts';
import type { PollingFunctions } from '../helpers/nodeRun';
import { isThrottleError } from '../transport/errors';
import { keepUnstoredState, unlessPolling, unstoredStateOf } from './activationMemory';
import { hasUsableId, itemsForAlert, oldestFirst } from './alertItems';
import { emitWithReceipt, forgetReceipt } from './deliveryReceipts';
import {
	alertKey,
	forgetReadAlerts,
	isNewAlert,
	limitState,
	toKnownAlert,
	uniqueAlerts,
} from './knownAlerts';
import { markPendingAlerts } from './markPendingAlerts';
import {
	committedWithExecution,
	readPollState,
	writePollState,
	type Delivery,
	type PollState,
} from './pollState';
import type { TriggerSettings } from './settings';
import { settleDeliveries } from './settleDeliveries';

/**
 * One production poll, skipped (before it reads its settings or starts its pacer) when the
 * previous poll of this activation is still running.
 * The state is written once, at the end. A poll that throws leaves the previous state in place,
 * so a failed listing is simply caught up by the next poll.
 *
 * An alert is marked read only once n8n has said that it created the execution carrying it. By
 * default n8n saves the poll's state before it creates that execution, so the emission goes out
 * with a receipt (deliveryReceipts.ts) and stays in flight until n8n settles it: then its alerts
 * are marked, or, when no execution is known to carry them, emitted again. With durable poll
 * cursors n8n commits the state and the execution together: an emission is known stored at once.
 */
export async function pollNewAlerts(
	this: IPollFunctions,
	startPoll: () => Promise<TriggerSettings>,
): Promise<INodeExecutionData[][] | null> {
	const emitted = await unlessPolling(this, async () => {
		const poll = async () => await pollOnce.call(this, await startPoll());
		const polled = await poll().then(
			(items) => ({ items }),
			(error: unknown) => ({ error }),
		);
		if ('items' in polled) return polled.items;
		const { error } = polled;
		// The first poll must take its baseline: it fails, and n8n activates the workflow again later.
		if (!isThrottleError(error) || !hasPolledBefore(this)) throw error;
		skipThrottledPoll(this, error);
		return null;
	});
	if (emitted !== undefined) return emitted;
	this.logger.debug('LibreBOR Trigger skipped a poll because the previous one is still running');
	return null;
}

const hasPolledBefore = (context: IPollFunctions) =>
	(readPollState(context.getWorkflowStaticData('node')) ?? unstoredStateOf(context)) !== undefined;

/**
 * LibreBOR kept throttling this poll beyond what it could wait (an hourly quota spent, say): the
 * poll ends quietly, without an error execution every minute. It wrote nothing, so the next poll
 * starts from the same state, and emits and marks what this one could not.
 */
export function skipThrottledPoll(context: PollingFunctions, error: NodeApiError): void {
	context.logger.warn(
		`LibreBOR Trigger skipped a poll: ${error.message}. Nothing is lost: the next poll tries again. If this happens at most polls, poll less often (LibreBOR's quota is shared by every workflow using the account).`,
		{ description: error.description ?? undefined },
	);
}

async function pollOnce(
	this: IPollFunctions,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][] | null> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readPollState(staticData);
	const previous = stored ?? unstoredStateOf(this);
	const settled = settleDeliveries(this, previous?.inFlight ?? []);
	// A version 1 state may hold an id that is not a UUID: it is never marked.
	const toMark = [...(previous?.pending ?? []), ...settled.stored];

	const { read: justRead, stillPending } = await markPendingAlerts.call(
		this,
		markable(toMark, settings),
		settings.run,
	);

	const listing = uniqueAlerts(await listUnreadAlerts.call(this, { run: settings.run }));
	// Kept in process memory while n8n has stored no state: the state as it is without what this
	// poll emits, which n8n may still fail to store with its execution.
	const save = (state: PollState, withoutEmission = state) => {
		writePollState(staticData, limitState(state));
		keepUnstoredState(this, stored ? undefined : limitState(withoutEmission));
		for (const token of settled.spent) forgetReceipt(this, token);
	};
	if (!previous && !settings.includeExisting) {
		save({ known: listing.map(toKnownAlert), pending: [] });
		return null;
	}

	// A just-read alert that the listing still shows stays known, in case the listing lags.
	const kept = (previous?.known ?? []).filter(([key]) => !settled.lost.has(key));
	const known = forgetReadAlerts(kept, listing, justRead);
	const knownKeys = new Set(known.map(([key]) => key));
	const newAlerts = oldestFirst(
		listing.filter((alert) => isNewAlert(alert, knownKeys, previous?.horizon)),
	);
	const { items, carried } = itemsOfNewAlerts.call(this, newAlerts, settings);

	const before: PollState = {
		known,
		pending: stillPending.filter((id) => knownKeys.has(id)),
		horizon: previous?.horizon,
		inFlight: settled.waiting,
	};
	const after = { ...before, known: [...known, ...newAlerts.map(toKnownAlert)] };
	if (items.length === 0) {
		save(after);
		return null;
	}
	if (committedWithExecution(staticData))
		after.pending = [...before.pending, ...markable(carried, settings)];
	else after.inFlight = [...settled.waiting, emissionWithReceipt(this, carried)];
	save(after, before);
	return [items];
}

/** Alerts that Mark as Read marks: never one whose id is not a UUID. */
export const markable = (keys: string[], settings: TriggerSettings) =>
	settings.markAsRead ? keys.filter((id) => hasUsableId({ id })) : [];

/** An emission that n8n saves before it creates its execution: in flight until n8n says what became of it. */
function emissionWithReceipt(context: IPollFunctions, carried: string[]): Delivery {
	const token = randomUUID();
	emitWithReceipt(context, token);
	return [token, carried];
}

/** The items of the new alerts, and the keys of the alerts they carry (those the filters let through). */
export function itemsOfNewAlerts(
	this: PollingFunctions,
	alerts: LibreBorAlert[],
	settings: TriggerSettings,
): { items: INodeExecutionData[]; carried: string[] } {
	const items: INodeExecutionData[] = [];
	const carried: string[] = [];
	for (const alert of alerts) {
		const alertItems = itemsForAlert(alert, settings);
		if (alertItems.length === 0) continue;
		items.push(...alertItems);
		carried.push(alertKey(alert));
		if (settings.markAsRead && !hasUsableId(alert))
			this.logger.warn(
				`LibreBOR Trigger will not mark alert ${alertKey(alert)} as read: its id is not a UUID`,
			);
	}
	return { items, carried };
}
