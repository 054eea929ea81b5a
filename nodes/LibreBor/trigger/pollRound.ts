import { NodeApiError, type INodeExecutionData } from 'n8n-workflow';

import { listUnreadAlerts } from '../api/alerts';
import type { LibreBorAlert } from '../alerts/alert';
import type { PollingFunctions } from '../run/nodeRun';
import { hasUsableId, itemsForAlert, oldestFirst } from './alertItems';
import { alertKey, forgetReadAlerts, isNewAlert, toKnownAlert, uniqueAlerts } from './knownAlerts';
import { markPendingAlerts } from './markPendingAlerts';
import type { KnownAlert, PollState } from './pollState';
import type { TriggerSettings } from './settings';

/** What a poll of either version learns before it emits. */
export interface PollRound {
	/** The unread alerts LibreBOR lists, each once. */
	listing: LibreBorAlert[];
	/** The alerts still remembered: the ones just read and the ones long absent are forgotten. */
	known: KnownAlert[];
	/** Alerts still to be marked as read, of those remembered. */
	pending: string[];
	/** The listed alerts never seen, oldest first. */
	newAlerts: LibreBorAlert[];
}

/** Alerts that Mark as Read marks: never one whose id is not a UUID. */
export const markable = (keys: string[], settings: TriggerSettings) =>
	settings.markAsRead ? keys.filter((id) => hasUsableId({ id })) : [];

/**
 * Marks `toMark` (with Mark as Read), then lists the unread alerts and tells the new ones from the
 * known, first forgetting `forget` (alerts to be emitted again as new). A just-read alert that the
 * listing still shows stays known, in case the listing lags. The absence of `countAbsent` (alerts
 * of held batches) counts even beyond a capped listing (see forgetReadAlerts).
 */
export async function pollRound(
	context: PollingFunctions,
	settings: TriggerSettings,
	previous: PollState | undefined,
	toMark: string[],
	{ forget = new Set<string>(), countAbsent = new Set<string>() } = {},
): Promise<PollRound> {
	const { read, stillPending } = await markPendingAlerts.call(
		context,
		markable(toMark, settings),
		settings.run,
	);
	const listing = uniqueAlerts(await listUnreadAlerts.call(context, { run: settings.run }));
	const kept = (previous?.known ?? []).filter(([key]) => !forget.has(key));
	const known = forgetReadAlerts(kept, listing, read, undefined, countAbsent);
	const knownKeys = new Set(known.map(([key]) => key));
	const newAlerts = oldestFirst(
		listing.filter((alert) => isNewAlert(alert, knownKeys, previous?.horizon)),
	);
	const pending = stillPending.filter((id) => knownKeys.has(id));
	return { listing, known, pending, newAlerts };
}

/** The state of a first poll without Include Existing Alerts: every listed alert taken as seen. */
export const baselineOf = (round: PollRound): PollState => ({
	known: round.listing.map(toKnownAlert),
	pending: [],
});

/** The known alerts once this round's new ones are seen. */
export const knownAfter = (round: PollRound): KnownAlert[] => [
	...round.known,
	...round.newAlerts.map(toKnownAlert),
];

/** The items of the new alerts, and the keys of the alerts they carry (those the filters let through). */
export function itemsOfNewAlerts(
	context: PollingFunctions,
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
			context.logger.warn(
				`LibreBOR Trigger will not mark alert ${alertKey(alert)} as read: its id is not a UUID`,
			);
	}
	return { items, carried };
}

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

/**
 * n8n activates the active workflows one after another when it starts, so an account LibreBOR
 * throttles must not hold up the others: the activation's poll waits out throttles this long at
 * most. Past it, a trigger with a baseline skips the poll quietly (the next Poll Time polls again);
 * one without fails its activation, which n8n tries again on its own.
 */
export const ACTIVATION_POLL_BUDGET_MS = 20_000;

/**
 * The error of an activation's first poll, which must note the alerts already there, when LibreBOR
 * throttled it beyond what an activation waits: it says what the trigger does and what to do, not
 * an execution's Time Budget and items.
 */
export function baselineError(context: PollingFunctions, error: NodeApiError): NodeApiError {
	const what =
		error.httpCode === '429'
			? 'LibreBOR is rate limiting the account (429)'
			: `LibreBOR is unavailable (${error.httpCode})`;
	return new NodeApiError(
		context.getNode(),
		{},
		{
			httpCode: error.httpCode ?? undefined,
			message: `${what}: the trigger could not list the alerts it starts from`,
			description: `When it is activated, the trigger notes the unread alerts already there, so as to emit only those that come later. It waits at most ${ACTIVATION_POLL_BUDGET_MS / 1000} s for LibreBOR, so as not to hold up n8n's activation of other workflows: n8n activates it again on its own when it starts; otherwise publish the workflow again later. The account's running executions may be spending its requests.`,
		},
	);
}
