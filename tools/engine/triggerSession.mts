import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { LibreBorTrigger } from '../../nodes/LibreBor/LibreBorTrigger.node.ts';
import type { Simulator } from '../simulator/index.mts';
import type { CursorStorage } from './pollPersistence.mts';
import { createPollSession, type AlertPollSession } from './pollSession.mts';
import { credentialsFor } from './simulatorCredentials.mts';
import { TriggerNodeSession } from './triggerNodeSession.mts';

/** Where n8n keeps a poll's state: its static data, or a durable poll cursor. */
export const CURSOR_STORAGES: CursorStorage[] = ['static-data', 'durable-cursor'];

/**
 * The trigger's versions: 1 polls as n8n's poll nodes do, 2 and 3 schedule their own polls (2 emits
 * a poll's alerts together, 3 each alert on its own).
 */
export type TriggerVersion = 1 | 2 | 3;

export interface TriggerSessionOptions {
	parameters?: INodeParameters;
	cursorStorage?: CursorStorage;
	staticData?: IDataObject;
	/** With the 'scheduler' storage: the budget n8n gives each scheduled poll; `null`: an n8n before poll budgets. */
	pollBudgetMs?: number | null;
	/** Version 1 unless said: a session of version 2 or 3 keeps its state in static data only. */
	version?: TriggerVersion;
}

/** One version of the LibreBOR Trigger, as n8n picks it for a node saved with that version. */
export const triggerVersion = (version: TriggerVersion) =>
	new LibreBorTrigger().getNodeType(version);

/** An active workflow whose only node is the LibreBOR Trigger, run through n8n-core. */
export function triggerSession(
	sim: Simulator,
	options: TriggerSessionOptions = {},
): AlertPollSession {
	const common = {
		parameters: options.parameters ?? {},
		credentials: credentialsFor(sim),
		staticData: options.staticData,
	};
	const { version = 1 } = options;
	if (version > 1)
		return new TriggerNodeSession({
			...common,
			nodeType: triggerVersion(version),
			typeVersion: version,
		});
	return createPollSession({
		...common,
		nodeType: triggerVersion(1),
		cursorStorage: options.cursorStorage,
		pollBudgetMs: options.pollBudgetMs,
	});
}

/** A session past its activation poll, which only notes the alerts already there. */
export async function activatedSession(
	sim: Simulator,
	options: TriggerSessionOptions = {},
): Promise<AlertPollSession> {
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
