import type { PollingFunctions } from '../run/nodeRun';
import { triggerKey } from './emissionKey';
import type { PollState } from './pollState';

/** Per context: n8n polls an active workflow through one context, unless its scheduler runs it. */
const pollsRunning = new WeakSet<PollingFunctions>();

/**
 * The state written by a poll when n8n had no stored state yet, per workflow and node (n8n's
 * durable scheduler gives every poll a new context). n8n does not store what the first poll of
 * an activation writes when it emits nothing (with durable poll cursors), nor, under its
 * scheduler without them, what any poll writes that emits nothing; the next poll would otherwise
 * take a new baseline and miss what arrived in between.
 */
const unstoredStates = new Map<string, PollState>();

/**
 * Runs one poll unless the previous poll of this context is still running (then undefined), so
 * that a tick that starts before the last one ends does not emit twice.
 */
export async function unlessPolling<T>(
	context: PollingFunctions,
	poll: () => Promise<T>,
): Promise<T | undefined> {
	if (pollsRunning.has(context)) return undefined;
	pollsRunning.add(context);
	try {
		return await poll();
	} finally {
		pollsRunning.delete(context);
	}
}

/**
 * Activations n8n has closed (the workflow unpublished, or published anew). n8n's emit does not
 * check, for a trigger node, that its activation is still the workflow's; a poll that was still
 * running there would emit beside the new activation's polls, batches of other keys.
 */
const closedActivations = new WeakSet<PollingFunctions>();

export function closeActivation(context: PollingFunctions): void {
	closedActivations.add(context);
}

export function isClosed(context: PollingFunctions): boolean {
	return closedActivations.has(context);
}

export function unstoredStateOf(context: PollingFunctions): PollState | undefined {
	return unstoredStates.get(triggerKey(context));
}

/** Keeps what a poll wrote while n8n has stored nothing; forgets it once n8n has. */
export function keepUnstoredState(context: PollingFunctions, state: PollState | undefined): void {
	if (state) unstoredStates.set(triggerKey(context), state);
	else unstoredStates.delete(triggerKey(context));
}
