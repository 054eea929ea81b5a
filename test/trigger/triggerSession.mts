import type { INodeParameters } from 'n8n-workflow';

import type {
	AlertPollSession as PollSession,
	TriggerSessionOptions,
} from '../../tools/engine/index.mts';
import type { Simulator } from '../../tools/simulator/index.mts';

export {
	activatedSession,
	alertIdsOf,
	CURSOR_STORAGES,
	pollJsonOf as jsonOf,
	triggerSession,
} from '../../tools/engine/index.mts';
export type { TriggerSessionOptions, TriggerVersion } from '../../tools/engine/index.mts';
export { useSimulator, withLatency } from '../support/libreBor.mts';
export type { PollSession, Simulator };

export const MARK_AS_READ: INodeParameters = { options: { markAsRead: true } };

/**
 * How n8n runs the trigger: version 1 as a poll node, its state kept as static data (n8n's default)
 * or as a durable poll cursor; version 2 as a trigger node emitting under deduplication keys.
 */
export const TRIGGER_KINDS: Array<[string, TriggerSessionOptions]> = [
	['version 1, static data', { cursorStorage: 'static-data' }],
	['version 1, durable cursor', { cursorStorage: 'durable-cursor' }],
	['version 2, static data', { version: 2 }],
	['version 3, static data', { version: 3 }],
];

/**
 * Whether a restart may emit again what n8n could not confirm: version 1 in n8n's default mode,
 * which saves a poll's state before it creates the execution and cannot tell whether it did.
 */
export const mayRepeatAfterRestart = (kind: TriggerSessionOptions): boolean =>
	kind.version === undefined && kind.cursorStorage === 'static-data';

/** API paths as the simulator logs them (below the /v2 version segment). */
export const ALERTS_PATH = '/v2/alerts/';
export const MARK_PATH = '/v2/alerts/mark_as_read/';
export const MARK_ALL_PATH = '/v2/alerts/mark_as_read/all/';

/** The ids of the alerts still unread, as the simulator lists them. */
export const unreadIds = (sim: Simulator): string[] => sim.state.unreadAlerts().map(({ id }) => id);

/** The ids of the alerts marked as read one by one, in request order. */
export const markedIds = (sim: Simulator): string[] =>
	sim
		.requestsTo('GET', MARK_PATH)
		.map((request) => decodeURIComponent(request.path.slice(MARK_PATH.length, -1)))
		.filter((id) => id !== 'all');

/** The node's state as n8n has stored it, measured as n8n would serialise it. */
export const storedStateSize = (session: PollSession): number =>
	JSON.stringify(session.savedNodeStaticData).length;

/** The node's state in the active workflow, stored or not yet. */
export const liveStateSize = (session: PollSession): number =>
	JSON.stringify(session.liveStaticData?.[`node:${session.nodeName}`] ?? {}).length;
