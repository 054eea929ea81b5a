import type { IDataObject } from 'n8n-workflow';

import { savedBeforeExecution } from '../run/n8nInternals';

/** Bumped when the shape changes, so that an older shape is recognised instead of misread. */
const POLL_STATE_VERSION = 2;
/** Version 1 stored known alerts as [id, createdAtMs]; it is read as version 2 with nothing absent. */
const READABLE_VERSIONS = [1, POLL_STATE_VERSION];

/**
 * An alert already seen: its key (see alertKey), its created_at in epoch milliseconds (null when
 * unreadable) and, once a listing lacked it, since when and in how many polls in a row.
 */
export type KnownAlert =
	| [id: string, createdAtMs: number | null]
	| [id: string, createdAtMs: number | null, absentSinceMs: number, absentPolls: number];

/**
 * The alerts (by key) one poll emitted, under a token of that emission (version 2: its
 * deduplication key, and when it was first emitted), while n8n has not yet said that it created
 * their execution.
 */
export type Delivery =
	| [token: string, keys: string[]]
	| [token: string, keys: string[], emittedAtMs: number];

/**
 * What the trigger remembers between polls, kept in the node's static data.
 * - `known`: alerts emitted, filtered out or found at activation that may still be listed.
 * - `pending`: alerts whose execution n8n created, still to be marked as read.
 * - `horizon`: alerts created at or before it are never emitted: they were forgotten to keep the
 *   state small (a version 1 state also set it at activation).
 * - `inFlight`: emissions whose execution is not known to exist yet. Optional, so that an earlier
 *   version of the node still reads the state (it takes these alerts as emitted).
 */
export interface PollState {
	known: KnownAlert[];
	pending: string[];
	horizon?: number;
	inFlight?: Delivery[];
}

/** Unlike the global isFinite, Number.isFinite converts nothing: a text is no time. */
const isTime = (value: unknown): value is number => Number.isFinite(value);

function isKnownAlert(value: unknown): value is KnownAlert {
	return (
		Array.isArray(value) &&
		(value.length === 2 || (value.length === 4 && isTime(value[2]) && isTime(value[3]))) &&
		typeof value[0] === 'string' &&
		(value[1] === null || isTime(value[1]))
	);
}

const isString = (value: unknown): value is string => typeof value === 'string';

function isDelivery(value: unknown): value is Delivery {
	return (
		Array.isArray(value) &&
		(value.length === 2 || (value.length === 3 && isTime(value[2]))) &&
		isString(value[0]) &&
		Array.isArray(value[1]) &&
		value[1].every(isString)
	);
}

/** Whether n8n commits this state in the same transaction as the execution the poll starts. */
export function committedWithExecution(staticData: IDataObject): boolean {
	return !savedBeforeExecution(staticData);
}

/** The saved state, or undefined before the first poll (or when the saved shape is not this version's). */
export function readPollState(staticData: IDataObject): PollState | undefined {
	if (!READABLE_VERSIONS.includes(staticData.v as number)) return undefined;
	const known = Array.isArray(staticData.known) ? staticData.known.filter(isKnownAlert) : [];
	const pending = Array.isArray(staticData.pending) ? staticData.pending.filter(isString) : [];
	const inFlight = Array.isArray(staticData.inFlight) ? staticData.inFlight.filter(isDelivery) : [];
	const horizon = isTime(staticData.horizon) ? staticData.horizon : undefined;
	return inFlight.length > 0 ? { known, pending, horizon, inFlight } : { known, pending, horizon };
}

/** Assigns whole top-level values so that n8n notices the change and saves it. */
export function writePollState(staticData: IDataObject, state: PollState): void {
	staticData.v = POLL_STATE_VERSION;
	staticData.known = state.known;
	staticData.pending = state.pending;
	if (state.horizon === undefined) delete staticData.horizon;
	else staticData.horizon = state.horizon;
	if (!state.inFlight?.length) delete staticData.inFlight;
	else staticData.inFlight = state.inFlight;
}
