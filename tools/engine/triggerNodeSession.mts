import { Container } from '@n8n/di';
import { TriggerContext, TriggersAndPollers } from 'n8n-core';
import type {
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	ITriggerFunctions,
	SchedulingFunctions,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { AsyncLocalStorage } from 'node:async_hooks';

import { ActiveWorkflowSession } from './activeWorkflowSession.mts';
import { createAdditionalData } from './additionalData.mts';
import { ensureEngine } from './engine.mts';
import { asLoadedByN8n, HarnessNodeTypes } from './nodeTypes.mts';
import type { PersistedPollState } from './pollPersistence.mts';
import type { AlertPollSession, PollMode, PollSessionOptions } from './pollSession.mts';

interface PollOutcome {
	emitted: INodeExecutionData[][][];
	failure?: Error;
}

interface ActiveTrigger {
	workflow: Workflow;
	/** The onTick of every Poll Time the node registered with n8n's cron helper. */
	ticks: Array<() => unknown>;
	/** What n8n calls when it removes the activation (the workflow unpublished, or published anew). */
	close?: () => Promise<void>;
}

let sessions = 0;

/**
 * An active workflow whose only node is a trigger that schedules its own polls (the LibreBOR
 * Trigger's version 2), run as n8n 2.41 runs it (the CLI's trigger-execution-context.factory.ts):
 * `trigger()` through n8n-core's TriggersAndPollers with a real TriggerContext, whose emit saves
 * the static data and then creates the execution unless one has its deduplication key; static
 * data saved again once the activation is done. A poll is the activation, or a tick of the cron
 * the node registered. Only what n8n's database holds survives `restart()`.
 */
export class TriggerNodeSession extends ActiveWorkflowSession implements AlertPollSession {
	private active?: ActiveTrigger;

	private nextActivation: WorkflowActivateMode = 'activate';

	/** Stable across restarts, as in n8n: the node's deduplication keys are made from it. */
	private readonly workflowId = `harness-trigger-workflow-${++sessions}`;

	/** The cron expression of every tick the node registered with n8n, in order. */
	readonly cronExpressions: Array<string | undefined> = [];

	/** What each poll handed to n8n: the emissions n8n did not refuse, and a reported failure. */
	private readonly pollOutcome = new AsyncLocalStorage<PollOutcome>();

	constructor(private readonly options: PollSessionOptions) {
		super(options);
	}

	protected activeWorkflow(): Workflow | undefined {
		return this.active?.workflow;
	}

	/** n8n prunes every execution so far, and their deduplication keys with them. */
	pruneExecutions(): void {
		this.state.pruneExecutions();
	}

	/**
	 * The activation, or one tick of the node's Poll Times; 'manual' is a "Fetch Test Event" run.
	 * Returns the items of what the poll emitted and n8n did not refuse as a duplicate, or null;
	 * rejects with the error that failed the activation or that the tick reported.
	 */
	async poll(mode: PollMode = 'trigger'): Promise<INodeExecutionData[][] | null> {
		await ensureEngine();
		if (mode === 'manual') return await this.manualRun();
		const outcome: PollOutcome = { emitted: [] };
		await this.pollOutcome.run(outcome, async () => {
			if (this.active) await Promise.all(this.active.ticks.map((tick) => tick()));
			else await this.activate();
		});
		if (outcome.failure) throw outcome.failure;
		const items = outcome.emitted.flatMap((data) => data[0] ?? []);
		return items.length > 0 ? [items] : null;
	}

	/** An n8n restart: activated again from what the database holds; running executions never end. */
	restart(): void {
		this.state.dropRunning();
		this.active = undefined;
		this.nextActivation = 'init';
	}

	/** Published anew: n8n closes the activation (a poll of it may still be running) and activates again. */
	republish(parameters: INodeParameters): void {
		void this.active?.close?.();
		this.active = undefined;
		this.node.parameters = structuredClone(parameters);
		this.nextActivation = 'update';
	}

	activateWithoutPolling(): void {
		throw new Error('A trigger node polls when it is activated: use poll()');
	}

	private reportFailure(error: Error): void {
		const outcome = this.pollOutcome.getStore();
		if (outcome) outcome.failure = error;
	}

	protected nodeTypes(): HarnessNodeTypes {
		return new HarnessNodeTypes().register(
			this.node.type,
			asLoadedByN8n(this.options.nodeType as INodeType),
		);
	}

	private async activate(): Promise<void> {
		const workflow = this.workflowFromDatabase(this.workflowId);
		const node = workflow.getNode(this.nodeName)!;
		const ticks: ActiveTrigger['ticks'] = [];
		const additionalData = createAdditionalData({
			credentialsHelper: this.credentialsHelper,
			workflowId: this.workflowId,
		});
		const context = () =>
			this.triggerContext(workflow, node, additionalData, ticks, this.nextActivation);
		const response = await Container.get(TriggersAndPollers).runTriggerFunction(
			workflow,
			node,
			context,
			additionalData,
			'trigger',
			this.nextActivation,
		);
		this.state.saveIfChanged(workflow);
		this.active = { workflow, ticks, close: response?.closeFunction };
	}

	private triggerContext(
		workflow: Workflow,
		node: INode,
		additionalData: ReturnType<typeof createAdditionalData>,
		ticks: ActiveTrigger['ticks'],
		activation: WorkflowActivateMode,
	): TriggerContext {
		const emit: ITriggerFunctions['emit'] = (data, _response, donePromise, deduplicationKey) => {
			this.state.saveIfChanged(workflow);
			const done = donePromise as Parameters<PersistedPollState['startExecution']>[1];
			if (this.state.startExecution(data, done, deduplicationKey) !== 'duplicate')
				this.pollOutcome.getStore()?.emitted.push(data);
		};
		const scheduling: SchedulingFunctions = {
			registerCron: (cron, onTick) => {
				this.cronExpressions.push(cron.expression);
				ticks.push(onTick as () => unknown);
			},
		};
		return new TriggerContext(
			workflow,
			node,
			additionalData,
			'trigger',
			activation,
			emit,
			(error) => this.reportFailure(error),
			(error) => this.reportFailure(error),
			scheduling,
		);
	}
}
