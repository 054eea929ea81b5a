import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { listUnreadAlerts } from '../api/alerts';
import { keepUnstoredState, unlessPolling, unstoredStateOf } from './activationMemory';
import { hasUsableId, itemsForAlert, oldestFirst } from './alertItems';
import {
	alertKey,
	forgetReadAlerts,
	isNewAlert,
	limitState,
	toKnownAlert,
	uniqueAlerts,
} from './knownAlerts';
import { markPendingAlerts } from './markPendingAlerts';
import { readPollState, writePollState, type KnownAlert, type PollState } from './pollState';
import type { TriggerSettings } from './settings';

/**
 * One production poll, skipped (before it reads its settings or starts its pacer) when the
 * previous poll of this activation is still running.
 * The state is written once, at the end: n8n stores it with the execution the poll starts (and,
 * depending on its settings, when the poll returns null), and a poll that throws leaves the
 * previous state in place, so a failed listing is simply caught up by the next poll.
 */
export async function pollNewAlerts(
	this: IPollFunctions,
	startPoll: () => Promise<TriggerSettings>,
): Promise<INodeExecutionData[][] | null> {
	const emitted = await unlessPolling(
		this,
		async () => await pollOnce.call(this, await startPoll()),
	);
	if (emitted !== undefined) return emitted;
	this.logger.debug('LibreBOR Trigger skipped a poll because the previous one is still running');
	return null;
}

async function pollOnce(
	this: IPollFunctions,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][] | null> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readPollState(staticData);
	const previous = stored ?? unstoredStateOf(this);
	let known: KnownAlert[] = previous?.known ?? [];
	// A version 1 state may hold an id that is not a UUID: it is never marked.
	let pending = (previous?.pending ?? []).filter((id) => hasUsableId({ id }));

	// Marked only now, a poll after they were emitted: had that execution not been stored,
	// they would still be unread and would be emitted again rather than lost.
	let justRead = new Set<string>();
	if (pending.length > 0) {
		const outcome = await markPendingAlerts.call(this, pending, settings.run);
		justRead = new Set(outcome.read);
		pending = outcome.stillPending;
	}

	const listing = uniqueAlerts(await listUnreadAlerts.call(this, { run: settings.run }));

	const save = (state: PollState) => {
		writePollState(staticData, state);
		keepUnstoredState(this, stored ? undefined : state);
	};

	if (!previous && !settings.includeExisting) {
		save(limitState({ known: listing.map(toKnownAlert), pending: [] }));
		return null;
	}

	// A just-read alert that the listing still shows stays known, in case the listing lags.
	known = forgetReadAlerts(known, listing, justRead);
	const knownIds = new Set(known.map(([id]) => id));
	pending = pending.filter((id) => knownIds.has(id));

	const items: INodeExecutionData[] = [];
	for (const alert of oldestFirst(
		listing.filter((alert) => isNewAlert(alert, knownIds, previous?.horizon)),
	)) {
		known.push(toKnownAlert(alert));
		const alertItems = itemsForAlert(alert, settings);
		if (alertItems.length === 0) continue;
		items.push(...alertItems);
		if (settings.markAsRead && hasUsableId(alert)) pending.push(alert.id);
		else if (settings.markAsRead)
			this.logger.warn(
				`LibreBOR Trigger will not mark alert ${alertKey(alert)} as read: its id is not a UUID`,
			);
	}

	save(limitState({ known, pending, horizon: previous?.horizon }));
	return items.length > 0 ? [items] : null;
}
