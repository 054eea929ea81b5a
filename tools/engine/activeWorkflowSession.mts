import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { CredentialTypeRegistry, defaultCredentialTypes } from './credentialTypes.mts';
import { HarnessCredentialsHelper } from './credentialsHelper.mts';
import { runManualPoll } from './manualPoll.mts';
import { buildNodeUnderTest } from './nodeUnderTest.mts';
import type { HarnessNodeTypes } from './nodeTypes.mts';
import { PersistedPollState, type ExecutionFate } from './pollPersistence.mts';
import type { PollSessionOptions } from './pollSession.mts';

/**
 * What every session of an active workflow with one trigger keeps, whichever way n8n runs the
 * trigger: the node a user saved, its credentials, and what n8n's database holds.
 */
export abstract class ActiveWorkflowSession {
	readonly nodeName: string;

	protected readonly node: INode;

	protected readonly credentialsHelper: HarnessCredentialsHelper;

	protected readonly state: PersistedPollState;

	constructor(options: PollSessionOptions) {
		this.node = buildNodeUnderTest(options);
		this.nodeName = this.node.name;
		this.state = new PersistedPollState(options.staticData);
		this.credentialsHelper = new HarnessCredentialsHelper(
			new CredentialTypeRegistry(options.credentialTypes ?? defaultCredentialTypes()),
			structuredClone(options.credentials ?? {}),
		);
	}

	/** The in-memory workflow n8n runs the trigger in while it is active. */
	protected abstract activeWorkflow(): Workflow | undefined;

	protected abstract nodeTypes(): HarnessNodeTypes;

	/** The workflow static data in n8n's database now: what a restart starts from. */
	get savedStaticData(): IDataObject {
		return this.state.savedStaticData;
	}

	/** This node's part of `savedStaticData` (`getWorkflowStaticData('node')` after a restart). */
	get savedNodeStaticData(): IDataObject {
		return (this.savedStaticData[`node:${this.nodeName}`] as IDataObject | undefined) ?? {};
	}

	/** The static data of the active in-memory workflow, including what is not saved yet. */
	get liveStaticData(): IDataObject | undefined {
		const workflow = this.activeWorkflow();
		return workflow ? (JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject) : undefined;
	}

	/** The items of every execution n8n created for what the trigger emitted, in order. */
	get executions(): INodeExecutionData[][][] {
		return this.state.executions;
	}

	/** What becomes of the executions of the next emissions (default: each is created and finishes). */
	set executionFate(fate: ExecutionFate) {
		this.state.executionFate = fate;
	}

	/** The next attempt to write changed static data fails: what it held is lost at a restart. */
	failNextSave(): void {
		this.state.failNextSave();
	}

	/**
	 * The workflow imported again over itself with this static data; reactivate it with `republish`.
	 * Durable poll cursors stay: n8n keeps them in a table of their own.
	 */
	replaceSavedStaticData(staticData: IDataObject): void {
		this.state.replaceStaticData(staticData);
	}

	/** The executions left running ('keepsRunning') finish now. */
	finishRunningExecutions(): void {
		this.state.finishRunning();
	}

	/** Whether the workflow is active (the next poll is not the first of an activation). */
	get isActivated(): boolean {
		return this.activeWorkflow() !== undefined;
	}

	/** The workflow as n8n activates it: this one node, and the static data its database holds. */
	protected workflowFromDatabase(id: string): Workflow {
		return new Workflow({
			id,
			name: 'Trigger under test',
			nodes: [structuredClone(this.node)],
			connections: {},
			active: true,
			nodeTypes: this.nodeTypes(),
			staticData: this.state.savedStaticData,
			settings: { executionOrder: 'v1' },
		});
	}

	/** A "Fetch Test Event" run, which leaves the saved state alone. */
	protected async manualRun(): Promise<INodeExecutionData[][] | null> {
		return await runManualPoll({
			node: this.node,
			nodeTypes: this.nodeTypes(),
			credentialsHelper: this.credentialsHelper,
			staticData: this.savedStaticData,
		});
	}
}
