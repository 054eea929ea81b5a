import { createdAtMs, type LibreBorAlert } from '../alerts/alert';
import { now as clockNow } from '../time/clock';
import type { KnownAlert, PollState } from './pollState';

/**
 * Most alerts remembered at once. Reached only when unread alerts pile up, unmarked, behind a
 * capped listing; past it, an alert never seen that sat behind a thousand newer ones could be
 * passed over, a fair price for a state that stays small (about 60 kB at most).
 */
const MAX_REMEMBERED_ALERTS = 1000;

/** Ascending order that also copes with infinities (which subtraction turns into NaN). */
export function ascending(a: number, b: number): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** Polls in a row, and time, an alert must be missing from the listing before it is forgotten. */
const FORGET_AFTER_ABSENT_POLLS = 3;
const FORGET_AFTER_ABSENT_MS = 10 * 60_000;
/** Longer ids are remembered by length and hash, so that one odd alert cannot bloat the state. */
const MAX_KEPT_ID_LENGTH = 100;

function hashOf(text: string): string {
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
	}
	return hash.toString(16);
}

/** What the state remembers an alert by: its id, or a short stand-in for a very long one. */
export function alertKey(alert: LibreBorAlert): string {
	const id = alert.id;
	return id.length <= MAX_KEPT_ID_LENGTH
		? id
		: `#${id.length}:${hashOf(id)}:${hashOf([...id].reverse().join(''))}`;
}

export function toKnownAlert(alert: LibreBorAlert): KnownAlert {
	return [alertKey(alert), createdAtMs(alert)];
}

/** The listing with each alert once (the first time it is listed). */
export function uniqueAlerts(listing: LibreBorAlert[]): LibreBorAlert[] {
	const seen = new Set<string>();
	return listing.filter((alert) => {
		const key = alertKey(alert);
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

/** The created_at of the oldest alert in a listing, ignoring unreadable ones. */
function oldestCreatedAt(alerts: LibreBorAlert[]): number | undefined {
	let oldest: number | undefined;
	for (const alert of alerts) {
		const time = createdAtMs(alert);
		if (time !== null && (oldest === undefined || time < oldest)) oldest = time;
	}
	return oldest;
}

/** An alert is new when it was never seen and was not created at or before the horizon. */
export function isNewAlert(
	alert: LibreBorAlert,
	knownKeys: Set<string>,
	horizon: number | undefined,
): boolean {
	if (knownKeys.has(alertKey(alert))) return false;
	const time = createdAtMs(alert);
	return horizon === undefined || time === null || time > horizon;
}

/**
 * Forgets the known alerts that are surely read, and only those, so that a glitchy listing (empty
 * once, or missing some alerts) cannot make the trigger emit them again:
 * - one this trigger has just marked read, once the listing no longer shows it;
 * - one missing from FORGET_AFTER_ABSENT_POLLS listings in a row, over FORGET_AFTER_ABSENT_MS.
 * One at or before the listing's oldest alert may only sit beyond a capped listing: it is not
 * counted as missing, unless `counted` names it (an alert of a batch held for it, which must not
 * wait for ever). A listed alert starts again from zero.
 */
export function forgetReadAlerts(
	known: KnownAlert[],
	listing: LibreBorAlert[],
	justRead: Set<string> = new Set(),
	now = clockNow(),
	counted: Set<string> = new Set(),
): KnownAlert[] {
	const listedKeys = new Set(listing.map(alertKey));
	const oldest = oldestCreatedAt(listing);
	const kept: KnownAlert[] = [];
	for (const entry of known) {
		const [key, time] = entry;
		if (listedKeys.has(key)) {
			kept.push([key, time]);
			continue;
		}
		if (justRead.has(key)) continue;
		const beyondCappedListing =
			!counted.has(key) && oldest !== undefined && (time === null || time <= oldest);
		if (beyondCappedListing) {
			kept.push(entry);
			continue;
		}
		const absentSince = entry.length === 4 ? entry[2] : now;
		const absentPolls = (entry.length === 4 ? entry[3] : 0) + 1;
		if (absentPolls >= FORGET_AFTER_ABSENT_POLLS && now - absentSince >= FORGET_AFTER_ABSENT_MS)
			continue;
		kept.push([key, time, absentSince, absentPolls]);
	}
	return kept;
}

/**
 * Keeps the state small whatever happens: past the limit the oldest known alerts are forgotten
 * and the horizon moves up to them, so that a forgotten alert listed again is not taken for new.
 * Known alerts at or before the horizon are dropped too, as the horizon already keeps them out.
 */
export function limitState(state: PollState, limit = MAX_REMEMBERED_ALERTS): PollState {
	let horizon = state.horizon;
	let known = state.known;
	if (known.length > limit) {
		// Unreadable timestamps go last: the horizon cannot keep such an alert out once forgotten.
		const oldestFirst = [...known].sort(([, a], [, b]) => ascending(a ?? Infinity, b ?? Infinity));
		const forgotten = oldestFirst.slice(0, known.length - limit);
		for (const [, time] of forgotten) {
			if (time !== null && (horizon === undefined || time > horizon)) horizon = time;
		}
		known = oldestFirst.slice(known.length - limit);
	}
	if (horizon !== undefined) {
		const limitHorizon = horizon;
		known = known.filter(([, time]) => time === null || time > limitHorizon);
	}
	const pending =
		state.pending.length > limit
			? state.pending.slice(state.pending.length - limit)
			: state.pending;
	// An emission in flight is kept whole, also when its alerts are forgotten here: once n8n reports
	// the execution that carried it, Mark as Read still has to mark every one of them.
	const inFlight = state.inFlight ?? [];
	return inFlight.length > 0 ? { known, pending, horizon, inFlight } : { known, pending, horizon };
}
