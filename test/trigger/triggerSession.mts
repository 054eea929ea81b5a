import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { expect } from 'vitest';

import { LibreBorTrigger } from '../../nodes/LibreBor/LibreBorTrigger.node.ts';
import {
	createPollSession,
	type CursorStorage,
	type PollSession,
} from '../../tools/engine/index.mts';
import type { Simulator } from '../../tools/simulator/index.mts';
import { credentialsFor } from '../support/libreBor.mts';

export { useSimulator } from '../support/libreBor.mts';
export type { PollSession, Simulator };

export const CURSOR_STORAGES: CursorStorage[] = ['static-data', 'durable-cursor'];

export interface TriggerSessionOptions {
	parameters?: INodeParameters;
	cursorStorage?: CursorStorage;
	staticData?: IDataObject;
	/** With the 'scheduler' storage: the budget n8n gives each scheduled poll. */
	pollBudgetMs?: number;
}

/** An active workflow whose only node is the LibreBOR Trigger, polled through n8n-core. */
export function triggerSession(sim: Simulator, options: TriggerSessionOptions = {}): PollSession {
	return createPollSession({
		nodeType: new LibreBorTrigger(),
		parameters: options.parameters ?? {},
		credentials: credentialsFor(sim),
		cursorStorage: options.cursorStorage,
		staticData: options.staticData,
		pollBudgetMs: options.pollBudgetMs,
	});
}

/** A session past its activation poll, which only notes the alerts already there. */
export async function activatedSession(
	sim: Simulator,
	options: TriggerSessionOptions = {},
): Promise<PollSession> {
	const session = triggerSession(sim, options);
	expect(await session.poll()).toBeNull();
	return session;
}

export const MARK_AS_READ: INodeParameters = { options: { markAsRead: true } };

export const jsonOf = (output: INodeExecutionData[][] | null): IDataObject[] =>
	output?.[0].map((item) => item.json) ?? [];

/** The alert ids an output carries, whichever the output shape. */
export const alertIdsOf = (output: INodeExecutionData[][] | null): string[] =>
	jsonOf(output).map((json) => String(json.alert_id ?? json.id));

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
