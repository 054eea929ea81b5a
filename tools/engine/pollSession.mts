import { Container } from '@n8n/di';
import { PollTriggerExecutor } from 'n8n-core';
import type {
	ICredentialType,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ActiveWorkflowSession } from './activeWorkflowSession.mts';
import { createAdditionalData } from './additionalData.mts';
import type { CredentialsByType } from './credentialsHelper.mts';
import { ensureEngine } from './engine.mts';
import { asLoadedByN8n, HarnessNodeTypes } from './nodeTypes.mts';
import type { CursorStorage, ExecutionFate } from './pollPersistence.mts';
import {
	createActivePollContext,
	PollOutcome,
	SCHEDULER_POLL_BUDGET_MS,
} from './pollPersistence.mts';

export type PollMode = 'trigger' | 'manual';

export interface PollSessionOptions {
	/** An instance of the trigger class; a restart builds a fresh one from its class. */
	nodeType: INodeType;
	parameters: INodeParameters;
	credentials?: CredentialsByType;
	/** The workflow static data saved before this session, if any. */
	staticData?: IDataObject;
	/** How the n8n instance keeps poll state; see pollPersistence.mts. Defaults to n8n's default. */
	cursorStorage?: CursorStorage;
	typeVersion?: number;
	credentialTypes?: ICredentialType[];
	/** With the 'scheduler' storage: the budget each scheduled poll gets; `null`: an n8n before poll budgets. */
	pollBudgetMs?: number | null;
}

interface ActivePollTrigger {
	workflow: Workflow;
	outcome: PollOutcome;
	execute: (testingTrigger: boolean) => Promise<void>;
}

let sessions = 0;

/** What tests do with an active trigger, whichever way n8n runs it (a poll node or a trigger node). */
export interface AlertPollSession {
	readonly nodeName: string;
	readonly savedStaticData: IDataObject;
	readonly savedNodeStaticData: IDataObject;
	readonly liveStaticData: IDataObject | undefined;
	readonly executions: INodeExecutionData[][][];
	executionFate: ExecutionFate;
	readonly isActivated: boolean;
	poll(mode?: PollMode): Promise<INodeExecutionData[][] | null>;
	restart(): void;
	republish(parameters: INodeParameters): void;
	finishRunningExecutions(): void;
	failNextSave(): void;
	replaceSavedStaticData(staticData: IDataObject): void;
	activateWithoutPolling(): void;
}

const freshInstanceOf = (nodeType: INodeType): INodeType => {
	const NodeClass = nodeType.constructor;
	return NodeClass === Object ? nodeType : (new (NodeClass as new () => INodeType)() as INodeType);
};

/**
 * An active workflow with one polling trigger, polled like n8n 2.41 polls it: the first
 * poll of an activation is n8n's "testing" poll, later ones are regular ticks sharing one
 * in-memory workflow, and only what n8n would write to its database survives `restart()`.
 */
export class PollSession extends ActiveWorkflowSession implements AlertPollSession {
	private readonly cursorStorage: CursorStorage;

	private active?: ActivePollTrigger;

	private nextActivation: WorkflowActivateMode = 'activate';

	private nodeTypeInstance: INodeType;

	/**
	 * The workflow's id, new for every session, and for every restart too: what the node keeps in
	 * its module's memory (found by workflow id) must be gone after a restart, as in n8n.
	 */
	private workflowId: string;

	private readonly sessionId = ++sessions;

	private restarts = 0;

	constructor(private readonly options: PollSessionOptions) {
		super(options);
		this.nodeTypeInstance = options.nodeType;
		this.cursorStorage = options.cursorStorage ?? 'static-data';
		this.workflowId = `harness-poll-workflow-${this.sessionId}`;
	}

	protected activeWorkflow(): Workflow | undefined {
		return this.active?.workflow;
	}

	/**
	 * One poll. 'trigger' is a tick of the active workflow (activating it first if needed);
	 * 'manual' is a "Fetch Test Event" run that leaves the saved state alone. Returns what
	 * the poll emitted (`undefined` too, which n8n emits), or null when it emitted nothing;
	 * rejects with the poll's error.
	 */
	async poll(mode: PollMode = 'trigger'): Promise<INodeExecutionData[][] | null> {
		await ensureEngine();
		if (mode === 'manual') return await this.manualRun();

		const activationPoll = !this.active;
		this.active ??= this.activate();
		// n8n's scheduler runs each later tick in a workflow and context of its own.
		const { execute, outcome } =
			this.cursorStorage === 'scheduler' && !activationPoll ? this.scheduledTask() : this.active;
		outcome.reset();
		try {
			await execute(activationPoll);
		} catch (error) {
			// A failed first poll fails the activation: n8n drops this workflow object and
			// activates again later from the saved state.
			this.active = undefined;
			throw error;
		}
		if (outcome.error) throw outcome.error;
		// As n8n-core hands it over: a poll that returns `undefined` emits it, as an execution.
		return outcome.emitted ? outcome.data! : null;
	}

	/**
	 * An n8n restart: a new node instance and workflow, activated again from the saved state.
	 * Executions still running never report their end to the new process.
	 */
	restart(): void {
		this.state.dropRunning();
		this.active = undefined;
		this.nodeTypeInstance = freshInstanceOf(this.options.nodeType);
		this.nextActivation = 'init';
		this.workflowId = `harness-poll-workflow-${this.sessionId}-after-restart-${++this.restarts}`;
	}

	/**
	 * The user publishes the workflow again, with these node parameters: n8n activates it anew in
	 * the same process (what the node keeps in memory stays) from the saved state.
	 */
	republish(parameters: INodeParameters): void {
		this.active = undefined;
		this.node.parameters = structuredClone(parameters);
		this.nextActivation = 'update';
	}

	/** Activates the workflow without polling yet; `runPoll` uses it to poll as a regular tick. */
	activateWithoutPolling(): void {
		this.active ??= this.activate();
	}

	protected nodeTypes(): HarnessNodeTypes {
		return new HarnessNodeTypes().register(this.node.type, asLoadedByN8n(this.nodeTypeInstance));
	}

	private activate(): ActivePollTrigger {
		// An n8n before poll budgets (`null`) gives none to any poll; n8n 2.41 gives one to each.
		return this.pollTrigger(
			this.nextActivation,
			this.options.pollBudgetMs === null ? null : undefined,
		);
	}

	private scheduledTask(): ActivePollTrigger {
		return this.pollTrigger('update', this.options.pollBudgetMs ?? SCHEDULER_POLL_BUDGET_MS);
	}

	private pollTrigger(
		activation: WorkflowActivateMode,
		pollBudgetMs?: number | null,
	): ActivePollTrigger {
		const workflow = this.workflowFromDatabase(this.workflowId);
		const node = workflow.getNode(this.nodeName)!;
		const outcome = new PollOutcome();
		const context = createActivePollContext({
			workflow,
			node,
			additionalData: createAdditionalData({
				credentialsHelper: this.credentialsHelper,
				workflowId: this.workflowId,
			}),
			activation,
			cursorStorage: this.cursorStorage,
			state: this.state,
			outcome,
			pollBudgetMs,
		});
		const execute = Container.get(PollTriggerExecutor).create(workflow, node, context, () => true);
		return { workflow, outcome, execute };
	}
}

export const createPollSession = (options: PollSessionOptions): PollSession =>
	new PollSession(options);
