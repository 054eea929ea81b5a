import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { LibreBorTrigger } from '../../nodes/LibreBor/LibreBorTrigger.node.ts';
import type { Simulator } from '../simulator/index.mts';
import type { CursorStorage } from './pollPersistence.mts';
import { createPollSession, type PollSession } from './pollSession.mts';
import { credentialsFor } from './simulatorCredentials.mts';

/** Where n8n keeps a poll's state: its static data, or a durable poll cursor. */
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
	const emitted = await session.poll();
	if (emitted !== null)
		throw new Error(`The activation poll emitted ${JSON.stringify(emitted)} instead of nothing`);
	return session;
}

/** The json of each item of a poll's output. */
export const pollJsonOf = (output: INodeExecutionData[][] | null): IDataObject[] =>
	output?.[0].map((item) => item.json) ?? [];

/** The alert ids an output carries, whichever the output shape. */
export const alertIdsOf = (output: INodeExecutionData[][] | null): string[] =>
	pollJsonOf(output).map((json) => String(json.alert_id ?? json.id));
