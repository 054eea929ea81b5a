import type { LibreBorAlert } from '../helpers/alerts';
import type { KnownAlert, PollState } from './pollState';

/**
 * Most alerts remembered at once. Reached only when unread alerts pile up, unmarked, behind a
 * capped listing; past it, an alert never seen that sat behind a thousand newer ones could be
 * passed over, a fair price for a state that stays small (about 60 kB at most).
 */
export const MAX_REMEMBERED_ALERTS = 1000;

export function createdAtMs(alert: LibreBorAlert): number | null {
	const time = typeof alert.created_at === 'string' ? Date.parse(alert.created_at) : NaN;
	return Number.isNaN(time) ? null : time;
}

/** Ascending order that also copes with infinities (which subtraction turns into NaN). */
export function ascending(a: number, b: number): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

export function toKnownAlert(alert: LibreBorAlert): KnownAlert {
	return [alert.id, createdAtMs(alert)];
}

/** The created_at of the oldest alert in a listing, ignoring unreadable ones. */
export function oldestCreatedAt(alerts: LibreBorAlert[]): number | undefined {
	let oldest: number | undefined;
	for (const alert of alerts) {
		const time = createdAtMs(alert);
		if (time !== null && (oldest === undefined || time < oldest)) oldest = time;
	}
	return oldest;
}

/** An alert is new when it was never seen and was created after the horizon. */
export function isNewAlert(alert: LibreBorAlert, knownIds: Set<string>, horizon: number | undefined): boolean {
	if (knownIds.has(alert.id)) return false;
	const time = createdAtMs(alert);
	return horizon === undefined || time === null || time > horizon;
}

/**
 * Forgets the known alerts that the listing shows were read. The API lists the latest unread
 * alerts, so one missing from the listing but newer than its oldest alert was read and never
 * comes back. One at or before the oldest may only sit beyond a capped listing: it is kept.
 * An empty listing means nothing is unread.
 */
export function forgetReadAlerts(known: KnownAlert[], listing: LibreBorAlert[]): KnownAlert[] {
	if (listing.length === 0) return [];
	const listedIds = new Set(listing.map((alert) => alert.id));
	const oldest = oldestCreatedAt(listing);
	return known.filter(
		([id, time]) => listedIds.has(id) || oldest === undefined || time === null || time <= oldest,
	);
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
		// Unreadable timestamps go first: nothing tells how old they are.
		const oldestFirst = [...known].sort(([, a], [, b]) => ascending(a ?? -Infinity, b ?? -Infinity));
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
	const pending = state.pending.length > limit ? state.pending.slice(state.pending.length - limit) : state.pending;
	return { known, pending, horizon };
}
