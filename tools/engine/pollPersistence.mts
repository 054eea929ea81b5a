/**
 * How n8n 2.41 keeps a polling node's static data, reproduced for tests.
 *
 * Sources: packages/cli/src/workflows/triggers/trigger-execution-context.factory.ts
 * (`getExecutePollFunctions`), packages/cli/src/workflows/triggers/poll-cursor.service.ts,
 * packages/cli/src/workflows/workflow-static-data.service.ts, and n8n-core's
 * poll-trigger-executor.ts / poll-context.ts (the installed 2.41.1 build).
 *
 * An active workflow keeps one Workflow object (and one PollContext) for all its polls;
 * every tick runs `poll()` through PollTriggerExecutor. What reaches the database:
 *
 * 'static-data' (the default: N8N_POLLER_DURABLE_CURSORS_ENABLED is off): the node reads and
 *   writes the live static data of that in-memory Workflow. It is saved only when a poll
 *   emits items (`__emit` calls WorkflowStaticDataService.saveStaticData, which writes the
 *   whole static data if it is marked changed). A poll that returns null, or throws, saves
 *   nothing: its changes stay in memory for the next polls and are saved by the next
 *   emitting poll, or are lost on a restart. Changes inside an object the node assigned
 *   during this activation are not seen as changes (ObservableObject only watches what it
 *   loaded), so they are saved only along with some other change.
 *
 * 'durable-cursor' (N8N_POLLER_DURABLE_CURSORS_ENABLED with the scheduler): each poll gets a
 *   copy of the stored cursor; it is committed with the execution the poll emits, or alone
 *   when the poll returns null, except on the first poll of an activation (that one runs
 *   as a "testing" poll, and a null result commits nothing); a poll that throws commits
 *   nothing and the next poll starts again from the stored cursor.
 *
 * 'scheduler' (N8N_SCHEDULER_ENABLED for poll triggers, with durable cursors): the activation
 *   poll runs as in 'durable-cursor'; every later tick is a task of n8n's durable scheduler
 *   (packages/cli/src/scheduling/poll-trigger-node/poll-trigger-task-handler.ts), which builds a
 *   new Workflow from the database and a new PollContext for it, with a poll budget (45 s poll
 *   timeout less a margin: 36 s), and commits the cursor when the poll returns null.
 *
 * Manual runs ("Fetch Test Event"): WorkflowExecute polls with a PollContext in manual mode
 *   over the static data of the manual execution's workflow, and manual executions never
 *   save static data (execution-lifecycle-hooks.ts `hookFunctionsSave`).
 *
 * The execution a poll's items start (trigger-execution-context.factory.ts, the poll's `__emit`):
 * n8n saves the static data, then creates the execution (`runWorkflow`), and settles the
 * donePromise handed to `__emit` with it (`settleDonePromise`): resolved once the execution has
 * finished, rejected when `runWorkflow` failed, or with the execution's own error (which names
 * its id in `extra.executionId`) when it was cancelled. An n8n stopped between the save and the
 * creation keeps the state and has no execution. With durable cursors, the cursor is committed in
 * the execution's own transaction: both or neither. See `ExecutionFate`.
 */
import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IPollFunctions,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { ManualExecutionCancelledError, UnexpectedError } from 'n8n-workflow';
import { AsyncLocalStorage } from 'node:async_hooks';
import { isDeepStrictEqual } from 'node:util';

export type CursorStorage = 'static-data' | 'durable-cursor' | 'scheduler';

/** What n8n's scheduler gives a poll by default: its 45 s timeout less a margin. */
export const SCHEDULER_POLL_BUDGET_MS = 36_000;

const nodeKey = (nodeName: string) => `node:${nodeName}`;

/** A copy as the database would return it: plain JSON, without the change markers. */
const asStored = (data: IDataObject): IDataObject =>
	JSON.parse(JSON.stringify(data)) as IDataObject;

/** What becomes of the execution n8n creates for the items a poll emits. */
export type ExecutionFate =
	/** Created, run and finished: the donePromise resolves. */
	| 'finishes'
	/** Created and still running until `finishRunning()`; a restart leaves it unfinished. */
	| 'keepsRunning'
	/** n8n stopped after saving the poll's state and before creating the execution: nothing settles. */
	| 'neverCreated'
	/** `runWorkflow` failed before creating it: the donePromise rejects with no execution id. */
	| 'refused'
	/** Created, then cancelled: the donePromise rejects with the execution's cancellation. */
	| 'cancelled';

type DonePromise = Parameters<IPollFunctions['__emit']>[2];

/** What n8n's database holds for the workflow: its static data, its durable poll cursors, its executions. */
export class PersistedPollState {
	private staticData: IDataObject;

	private readonly cursors = new Map<string, IDataObject>();

	/** The fate of the executions the next emissions start. */
	executionFate: ExecutionFate = 'finishes';

	/** The items of every execution n8n created, in order. */
	readonly executions: INodeExecutionData[][][] = [];

	private running: Array<() => void> = [];

	/** The deduplication keys of the executions in the database, unique as n8n's index keeps them. */
	private readonly deduplicationKeys = new Set<string>();

	private nextSaveFails = false;

	constructor(staticData: IDataObject = {}) {
		this.staticData = asStored(staticData);
	}

	/** The workflow static data a restarted n8n would load, with the durable cursors in their nodes' places. */
	get savedStaticData(): IDataObject {
		const saved = asStored(this.staticData);
		for (const [nodeName, cursor] of this.cursors) saved[nodeKey(nodeName)] = asStored(cursor);
		return saved;
	}

	/** WorkflowStaticDataService.saveStaticData: writes everything, and only when something changed. */
	saveIfChanged(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		// A failed write is logged and the data left marked as changed; a trigger's emit does not
		// wait for it (`void saveStaticData`) and creates the execution all the same.
		if (this.nextSaveFails) {
			this.nextSaveFails = false;
			return;
		}
		this.staticData = asStored(workflow.staticData);
		workflow.staticData.__dataChanged = false;
	}

	/** The next write of the static data fails (the database busy or gone for a moment). */
	failNextSave(): void {
		this.nextSaveFails = true;
	}

	/** The workflow's static data replaced in the database, as an import of the workflow over itself does. */
	replaceStaticData(staticData: IDataObject): void {
		this.staticData = asStored(staticData);
	}

	/** PollCursorService.resolveCursor: the stored cursor, or the node's static data until one is committed. */
	cursorOf(nodeName: string): IDataObject {
		return asStored(
			this.cursors.get(nodeName) ?? (this.staticData[nodeKey(nodeName)] as IDataObject) ?? {},
		);
	}

	commitCursor(nodeName: string, cursor: IDataObject): void {
		this.cursors.set(nodeName, asStored(cursor));
	}

	/**
	 * `runWorkflow` and `settleDonePromise` for one emission; false when no execution was created.
	 * An emission under a key an execution already has is refused: its donePromise resolves with
	 * nothing (n8n's DuplicateExecutionError, caught in the trigger's emit).
	 */
	startExecution(
		data: INodeExecutionData[][],
		donePromise: DonePromise,
		deduplicationKey?: string,
	): boolean | 'duplicate' {
		if (deduplicationKey !== undefined && this.deduplicationKeys.has(deduplicationKey)) {
			donePromise?.resolve(undefined);
			return 'duplicate';
		}
		const fate = this.executionFate;
		const executionId = String(this.executions.length + 1);
		// Settled at once: an execution ends long before the next poll, unless it keeps running.
		if (fate === 'neverCreated') return false;
		if (fate === 'refused') {
			donePromise?.reject(new Error('The workflow could not be started'));
			return false;
		}
		this.executions.push(data);
		if (deduplicationKey !== undefined) this.deduplicationKeys.add(deduplicationKey);
		if (fate === 'cancelled') donePromise?.reject(new ManualExecutionCancelledError(executionId));
		else if (fate === 'keepsRunning') this.running.push(() => donePromise?.resolve(undefined));
		else donePromise?.resolve(undefined);
		return true;
	}

	/** n8n pruned every execution (after 14 days by default): their deduplication keys go with them. */
	pruneExecutions(): void {
		this.deduplicationKeys.clear();
	}

	/** The executions still running finish now. */
	finishRunning(): void {
		for (const finish of this.running.splice(0)) finish();
	}

	/** n8n stopped: what still ran never settles its donePromise. */
	dropRunning(): void {
		this.running = [];
	}
}

/** What the current tick handed to n8n: the items it emitted, or the error it reported. */
export class PollOutcome {
	/**
	 * Whether the poll emitted: n8n-core's PollTriggerExecutor skips only a `null` result and
	 * emits anything else, `undefined` too, which starts an execution.
	 */
	emitted = false;

	data?: INodeExecutionData[][];

	error?: Error;

	reset(): void {
		this.emitted = false;
		this.data = undefined;
		this.error = undefined;
	}
}

type StagedCursor =
	| { migrated: true; snapshot: IDataObject; seed: IDataObject }
	| { migrated: false };

/**
 * The PollContext n8n's trigger factory builds for an active poll trigger, with the same
 * emit, error and cursor hooks; the database writes go to `state`, the hand-offs to `outcome`.
 */
export function createActivePollContext(options: {
	workflow: Workflow;
	node: INode;
	additionalData: IWorkflowExecuteAdditionalData;
	activation: WorkflowActivateMode;
	cursorStorage: CursorStorage;
	state: PersistedPollState;
	outcome: PollOutcome;
	/**
	 * Set for a scheduler task: the time the poll may take (`getPollBudgetMs`). `null`: an n8n
	 * before poll budgets, whose poll functions have no `getPollBudgetMs`.
	 */
	pollBudgetMs?: number | null;
}): PollContext {
	const { workflow, node, state, outcome } = options;
	const stagedCursor = new AsyncLocalStorage<StagedCursor>();

	const __runPoll = async <T,>(poll: () => Promise<T>): Promise<T> => {
		const staged: StagedCursor =
			options.cursorStorage !== 'static-data'
				? { migrated: true, snapshot: state.cursorOf(node.name), seed: state.cursorOf(node.name) }
				: { migrated: false };
		return await stagedCursor.run(staged, poll);
	};

	const takeStagedCursor = (): IDataObject | null => {
		const staged = stagedCursor.getStore();
		if (!staged?.migrated || isDeepStrictEqual(asStored(staged.snapshot), staged.seed)) return null;
		staged.seed = asStored(staged.snapshot);
		return staged.seed;
	};

	const __emit: IPollFunctions['__emit'] = (data, _responsePromise, donePromise) => {
		outcome.emitted = true;
		outcome.data = data;
		const cursor = takeStagedCursor();
		state.saveIfChanged(workflow);
		const created = state.startExecution(data, donePromise);
		// A durable cursor is committed in the execution's own transaction: both, or neither.
		if (cursor && created) state.commitCursor(node.name, cursor);
	};

	const __emitError: IPollFunctions['__emitError'] = (error) => {
		outcome.error = error;
	};

	const __commitCursor = async () => {
		const cursor = takeStagedCursor();
		if (cursor) state.commitCursor(node.name, cursor);
	};

	const resolveNodeStaticData = (): IDataObject => {
		const staged = stagedCursor.getStore();
		if (!staged) {
			throw new UnexpectedError(
				'Poll node read its static data outside of a poll; __runPoll was not entered',
			);
		}
		return staged.migrated ? staged.snapshot : workflow.getStaticData('node', node);
	};

	const context = new PollContext(
		workflow,
		node,
		options.additionalData,
		'trigger',
		options.activation,
		__emit,
		__emitError,
		__commitCursor,
		__runPoll,
		resolveNodeStaticData,
		typeof options.pollBudgetMs === 'number' ? () => options.pollBudgetMs as number : undefined,
	);
	if (options.pollBudgetMs === null) Reflect.deleteProperty(context, 'getPollBudgetMs');
	return context;
}
