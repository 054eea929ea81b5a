import type { INodeExecutionData, ITriggerFunctions } from 'n8n-workflow';

import type { LibreBorAlert } from '../alerts/alert';
import { now } from '../time/clock';
import { isThrottleError } from '../transport/errors';
import { isClosed, unlessPolling } from './activationMemory';
import { itemsForAlert, oldestFirst } from './alertItems';
import { emitUnderKey, forgetReceipt } from './deliveryReceipts';
import { emissionKey } from './emissionKey';
import { alertKey, limitState } from './knownAlerts';
import {
	baselineOf,
	baselineError,
	itemsOfNewAlerts,
	knownAfter,
	pollRound,
	skipThrottledPoll,
	type PollRound,
} from './pollRound';
import { readPollState, writePollState, type Delivery } from './pollState';
import type { TriggerSettings } from './settings';
import { settleDeliveries } from './settleDeliveries';

/**
 * An emission this process never heard of (n8n restarted since) is emitted again under its key,
 * which n8n refuses when its execution exists. Past this age that execution may have been pruned
 * (after 14 days by default), so the emission is taken as carried instead: only an n8n that
 * stopped between saving the state and creating the execution, and stayed down this long, loses it.
 */
const REPEAT_UNHEARD_FOR_MS = 7 * 24 * 60 * 60_000;

/** Set on the items of an emission repeated after a restart: n8n may have carried them before. */
const POSSIBLE_REPEAT_FIELD = 'possible_repeat';

interface Emission {
	items: INodeExecutionData[];
	delivery: Delivery;
}

/**
 * One poll of versions 2 and 3, which n8n's cron helper starts at each Poll Time (and the trigger itself
 * at activation). Skipped while the previous poll still runs; under a spent quota it ends
 * quietly, except the first, which must take the baseline.
 */
export async function emitNewAlerts(
	this: ITriggerFunctions,
	startPoll: () => Promise<TriggerSettings>,
): Promise<void> {
	const polled = await unlessPolling(this, async () => {
		// The settings' own request (the Company filter's watch list) is under the same rule.
		const poll = async () => await emitOnce.call(this, await startPoll());
		const failure = await poll().then(
			() => undefined,
			(error: unknown) => error ?? new Error('The poll failed'),
		);
		if (failure === undefined) return true;
		if (!isThrottleError(failure)) throw failure;
		// The first poll must take its baseline: it fails, and n8n activates the workflow again later.
		const polledBefore = readPollState(this.getWorkflowStaticData('node')) !== undefined;
		if (!polledBefore) throw baselineError(this, failure);
		skipThrottledPoll(this, failure);
		return true;
	});
	if (!polled)
		this.logger.debug('LibreBOR Trigger skipped a poll because the previous one is still running');
}

/**
 * Every batch of new alerts goes out under a deduplication key (emissionKey.ts), and stays in
 * flight in the state until n8n settles it; the state is written before the emission, which n8n
 * saves before it creates the execution. A batch n8n did not carry, or that a restart left
 * unheard of, goes out again under the same key: n8n refuses it when an execution has it already.
 */
async function emitOnce(this: ITriggerFunctions, settings: TriggerSettings): Promise<void> {
	const staticData = this.getWorkflowStaticData('node');
	const previous = readPollState(staticData);
	const settled = settleDeliveries(this, previous?.inFlight ?? []);
	const { toRepeat, takenAsCarried } = splitLost(settled.lost, settled.unheard);
	const toMark = [...(previous?.pending ?? []), ...settled.stored, ...takenAsCarried];
	const countAbsent = new Set(toRepeat.flatMap(([, keys]) => keys));
	const round = await pollRound(this, settings, previous, toMark, { countAbsent });
	// The workflow was unpublished or published anew meanwhile: the new activation polls from here.
	if (isClosed(this)) return;
	if (!previous && !settings.includeExisting) {
		writePollState(staticData, limitState(baselineOf(round)));
		return;
	}
	const repeats = toRepeat.map((delivery) => ({
		delivery,
		again: repeated(delivery, round, settings, settled.unheard.has(delivery[0])),
	}));
	const held = repeats.filter(({ again }) => again === 'held').map(({ delivery }) => delivery);
	const emissions = [
		...repeats.flatMap(({ again }) => (typeof again === 'object' ? [again] : [])),
		...newEmissions(this, round.newAlerts, settings),
	];
	writePollState(
		staticData,
		limitState({
			known: knownAfter(round),
			pending: round.pending,
			horizon: previous?.horizon,
			inFlight: [...settled.waiting, ...held, ...emissions.map(({ delivery }) => delivery)],
		}),
	);
	const heldTokens = new Set(held.map(([token]) => token));
	for (const token of settled.spent) if (!heldTokens.has(token)) forgetReceipt(this, token);
	for (const { items, delivery } of emissions) emitUnderKey(this, items, delivery[0]);
}

/** Lost batches to emit again, and the alerts of those too old to repeat (see REPEAT_UNHEARD_FOR_MS). */
function splitLost(lost: Delivery[], unheard: Set<string>) {
	const toRepeat: Delivery[] = [];
	const takenAsCarried: string[] = [];
	for (const delivery of lost) {
		const [key, keys, emittedAtMs = now()] = delivery;
		if (unheard.has(key) && now() - emittedAtMs > REPEAT_UNHEARD_FOR_MS)
			takenAsCarried.push(...keys);
		else toRepeat.push(delivery);
	}
	return { toRepeat, takenAsCarried };
}

/**
 * A lost batch again, with the alerts of it LibreBOR lists; none when it lists none and every one
 * is surely read (see forgetReadAlerts). While one is missing from the listing but may be unread
 * still (a glitchy listing, or one capped before it), the batch is held as it is, to go out whole
 * once listed: its key goes out once. Once that alert counts as read (missing from 3 listings over
 * 10 minutes, also beyond a capped listing: read in LibreBOR's panel, say), it is forgotten, and
 * the batch goes out without it; listed again later, it is a new alert.
 */
function repeated(
	[key, keys, emittedAtMs = now()]: Delivery,
	round: PollRound,
	settings: TriggerSettings,
	unheard: boolean,
): Emission | 'held' | undefined {
	const listed = new Set(round.listing.map(alertKey));
	const mayBeUnread = new Set(round.known.map(([known]) => known));
	if (keys.some((known) => !listed.has(known) && mayBeUnread.has(known))) return 'held';
	const batch = new Set(keys);
	const alerts = oldestFirst(round.listing.filter((alert) => batch.has(alertKey(alert))));
	const items = alerts.flatMap((alert) => itemsForAlert(alert, settings));
	if (items.length === 0) return undefined;
	const flagged = unheard
		? items.map((item) => ({ ...item, json: { ...item.json, [POSSIBLE_REPEAT_FIELD]: true } }))
		: items;
	return { items: flagged, delivery: [key, alerts.map(alertKey), emittedAtMs] };
}

/** The new alerts, together (version 2) or each on its own (version 3), under the key of what goes out. */
function newEmissions(
	context: ITriggerFunctions,
	alerts: LibreBorAlert[],
	settings: TriggerSettings,
): Emission[] {
	const batches = settings.executionPerAlert ? alerts.map((alert) => [alert]) : [alerts];
	return batches.flatMap((batch) => {
		const { items, carried } = itemsOfNewAlerts(context, batch, settings);
		if (items.length === 0) return [];
		return [{ items, delivery: [emissionKey(context, carried), carried, now()] }];
	});
}
