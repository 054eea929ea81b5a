import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
} from 'n8n-workflow';

import { isTriggerContext } from './n8nInternals';
import { DEFAULT_PACING, Pacer, type PacerSettings } from '../pacing/pacer';

/** How long one request may take when the node's options do not say. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** What a run starts with: how its requests are paced, and the deadline of each. */
export interface RunSettings {
	pacing: PacerSettings;
	timeoutMs: number;
}

/**
 * An editor's picker must answer while the user waits: a throttle it cannot wait out within
 * 10 s fails it at once, with how long LibreBOR asked to wait.
 */
export const LIST_SEARCH_RUN_SETTINGS: RunSettings = {
	pacing: { ...DEFAULT_PACING, budgetMs: 10_000 },
	timeoutMs: DEFAULT_TIMEOUT_MS,
};

/** How far a run got, for the error that stops it: items finished, and items in all (0: not counted). */
export interface RunProgress {
	done: number;
	total: number;
}

/**
 * One run of a node: an execution of the action node, one poll of the trigger, one list search.
 * Whatever sends a request, waits or fails on the run's behalf is handed it, never looks it up.
 */
export interface NodeRun {
	/** Shared by every request of the run (orders too), with the run's time budget. */
	readonly pacer: Pacer;
	readonly progress: RunProgress;
	/**
	 * The execution's cancel signal; a poll or a list search has none. Without Continue On Fail, an
	 * execution's run also fires it when its first item fails (see stoppableRun in itemRunner.ts).
	 */
	readonly cancelSignal?: AbortSignal;
	/** The deadline of each request of the run. */
	readonly timeoutMs: number;
	/**
	 * Where the run keeps what it learns of the account's limit beyond this process: the workflow's
	 * static data, which n8n saves after every execution that is not manual. None for a poll or a
	 * list search, nor for a retry, which n8n starts without the workflow's static data and would
	 * save over it (see learnedLimits.ts).
	 */
	readonly limitStore?: IDataObject;
	/**
	 * A list search of the editor, which answers while the user waits: it neither starts from nor
	 * adds to what runs learned of the account's limit, and a throttle it cannot wait out fails it
	 * saying when to try again (see LIST_SEARCH_RUN_SETTINGS).
	 */
	readonly forEditor: boolean;
}

/** What a trigger polls from: a poll (version 1) or a trigger that schedules its own polls (version 2). */
export type PollingFunctions = IPollFunctions | ITriggerFunctions;

/** The context of a node run; only an execution's can be cancelled. */
type RunContext = IExecuteFunctions | PollingFunctions | ILoadOptionsFunctions;

/** Starts a run of `context`; `itemsTotal` counts its input items when it runs one per item. */
export function startNodeRun(context: RunContext, settings: RunSettings, itemsTotal = 0): NodeRun {
	const execution = 'getExecutionCancelSignal' in context ? context : undefined;
	return {
		pacer: new Pacer(settings.pacing),
		progress: { done: 0, total: itemsTotal },
		cancelSignal: execution?.getExecutionCancelSignal(),
		timeoutMs: settings.timeoutMs,
		limitStore:
			execution && execution.getMode() !== 'retry'
				? execution.getWorkflowStaticData('global')
				: undefined,
		forEditor: execution === undefined && !isTriggerContext(context),
	};
}

/** The run is over: what its pacer learned of the account's limit is kept for the next runs. */
export function endNodeRun(run: NodeRun): void {
	run.pacer.finish();
}

/** What every call of `api/` and `transport/` takes besides its own arguments. */
export interface RequestSettings {
	run: NodeRun;
	/** The input item the request serves; none for a request of the whole run. */
	itemIndex?: number;
}

/** One input item of a run, as the item runner hands it to an operation. */
export interface ItemRequest extends RequestSettings {
	itemIndex: number;
}
