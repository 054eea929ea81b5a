import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	IDataObject,
	ICredentialType,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IRunData,
	IWorkflowBase,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow } from 'n8n-workflow';
import type { IConnections, IRunExecutionData } from 'n8n-workflow';

import { createAdditionalData } from './additionalData.mts';
import { CredentialTypeRegistry, defaultCredentialTypes } from './credentialTypes.mts';
import type { CredentialsByType } from './credentialsHelper.mts';
import { HarnessCredentialsHelper } from './credentialsHelper.mts';
import { ensureEngine } from './engine.mts';
import type { InputItems } from './inputNode.mts';
import {
	createInputNodeType,
	INPUT_NODE_NAME,
	INPUT_NODE_TYPE,
	toExecutionItems,
} from './inputNode.mts';
import { createLoopNodeType, LOOP_NODE_NAME, LOOP_NODE_TYPE } from './loopNode.mts';
import { buildNodeUnderTest } from './nodeUnderTest.mts';
import { asLoadedByN8n, HarnessNodeTypes } from './nodeTypes.mts';

export interface RunActionOptions {
	/** An instance of the node class, e.g. `new LibreBor()`. */
	nodeType: INodeType;
	parameters: INodeParameters;
	/** Decrypted credential data by credential type name, e.g. `{ libreBorApi: {...} }`. */
	credentials?: CredentialsByType;
	/** Input items; plain objects become `{ json }`. Defaults to one empty item. */
	items?: InputItems;
	/** The node setting "On Error: Continue" (`onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	/** The node setting "Retry On Fail": n8n runs the node once more, in the same execution, if it fails. */
	retryOnFail?: boolean;
	typeVersion?: number;
	/** Execution mode; n8n's own node tests use 'manual'. */
	mode?: WorkflowExecuteMode;
	/**
	 * The workflow's id and static data, to run the node as later executions of one saved
	 * workflow; by default every run is a workflow of its own.
	 */
	workflow?: { id: string; staticData: IDataObject };
	/** The node's type name as n8n registers it; e.g. `...libreBorTool` when used as an AI tool. */
	nodeTypeName?: string;
	/** Cancels the execution this long after it starts, as the editor's Stop button does. */
	cancelAfterMs?: number;
	/** Cancels the execution once this promise resolves, at a moment the test chooses. */
	cancelWhen?: Promise<unknown>;
	/** Credential types the engine knows; defaults to the package's. */
	credentialTypes?: ICredentialType[];
	/** The workflow's Timezone setting; n8n's default (America/New_York) when not set. */
	timezone?: string;
	/** Runs the node in a loop (n8n's Loop Over Items) over its input, this many items at a time. */
	loopBatchSize?: number;
	/**
	 * Runs as n8n's Retry of this failed execution (mode `retry`, a new execution id): as n8n does,
	 * it starts from that execution's data, its flow context included, at the node that failed.
	 */
	retryOf?: ActionResult;
	/** Runs under this execution id, as n8n resumes an execution that waited (a Wait node) under its own. */
	executionId?: string;
}

export interface ActionResult {
	/** First output of the node under test. */
	items: INodeExecutionData[];
	outputs: INodeExecutionData[][];
	/**
	 * The error the node threw when the run failed (not set when continueOnFail kept it
	 * going), as thrown: a NodeApiError or NodeOperationError instance.
	 */
	error?: ExecutionBaseError;
	/** The same failure as n8n-core stores it in the run data: a plain copy of the error's fields. */
	engineError?: ExecutionBaseError;
	runData: IRunData;
	run: IRun;
	nodeName: string;
}

let executionCounter = 0;

/** n8n-core keeps only a field copy of a node's error; this keeps the instance the node threw. */
function recordingThrownError(
	nodeType: INodeType,
	thrown: { error?: ExecutionBaseError },
): INodeType {
	const { execute } = nodeType;
	if (!execute) return nodeType;
	nodeType.execute = async function (this: IExecuteFunctions) {
		try {
			return await execute.call(this);
		} catch (error) {
			thrown.error = error as ExecutionBaseError;
			throw error;
		}
	};
	return nodeType;
}

/** Runs an action node behind a test input node through n8n-core's WorkflowExecute. */
export async function runAction(options: RunActionOptions): Promise<ActionResult> {
	await ensureEngine();

	const nodeUnderTest = buildNodeUnderTest(options);
	if (options.nodeTypeName) nodeUnderTest.type = options.nodeTypeName;
	const inputNode = {
		id: 'test-input',
		name: INPUT_NODE_NAME,
		type: INPUT_NODE_TYPE,
		typeVersion: 1,
		position: [-200, 0] as [number, number],
		parameters: {},
	};
	const thrown: { error?: ExecutionBaseError } = {};
	const nodeTypes = new HarnessNodeTypes()
		.register(INPUT_NODE_TYPE, createInputNodeType(toExecutionItems(options.items)))
		.register(nodeUnderTest.type, recordingThrownError(asLoadedByN8n(options.nodeType), thrown));
	const loopNode =
		options.loopBatchSize === undefined
			? undefined
			: {
					id: 'test-loop',
					name: LOOP_NODE_NAME,
					type: LOOP_NODE_TYPE,
					typeVersion: 1,
					position: [-100, 0] as [number, number],
					parameters: {},
				};
	if (options.loopBatchSize !== undefined)
		nodeTypes.register(LOOP_NODE_TYPE, createLoopNodeType(options.loopBatchSize));

	const mode = options.retryOf ? 'retry' : (options.mode ?? 'manual');
	const executionId = options.executionId ?? String(++executionCounter);
	const workflowData: IWorkflowBase = {
		id: options.workflow?.id ?? `harness-action-workflow-${executionId}`,
		name: 'Action under test',
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: loopNode ? [inputNode, loopNode, nodeUnderTest] : [inputNode, nodeUnderTest],
		connections: connectionsOf(nodeUnderTest.name, loopNode !== undefined),
		settings: { executionOrder: 'v1', ...(options.timezone ? { timezone: options.timezone } : {}) },
	};
	const workflow = new Workflow({
		...workflowData,
		nodeTypes,
		staticData: options.workflow?.staticData,
	});
	const additionalData = createAdditionalData({
		credentialsHelper: new HarnessCredentialsHelper(
			new CredentialTypeRegistry(options.credentialTypes ?? defaultCredentialTypes()),
			structuredClone(options.credentials ?? {}),
		),
		workflowId: workflowData.id,
		executionId,
		hooks: new ExecutionLifecycleHooks(mode, executionId, workflowData),
	});

	const execution = options.retryOf
		? new WorkflowExecute(additionalData, mode, retryData(options.retryOf)).processRunExecutionData(
				workflow,
			)
		: new WorkflowExecute(additionalData, mode).run({
				workflow,
				startNode: workflow.getNode(INPUT_NODE_NAME)!,
			});
	const cancelTimer =
		options.cancelAfterMs === undefined
			? undefined
			: setTimeout(() => execution.cancel(), options.cancelAfterMs);
	void options.cancelWhen?.then(() => execution.cancel());
	const run = await execution.finally(() => clearTimeout(cancelTimer));

	const { runData } = run.data.resultData;
	// A retry keeps the runs of the failed execution before its own.
	const taskData = runData[nodeUnderTest.name]?.at(options.retryOf ? -1 : 0);
	const outputs = (taskData?.data?.main ?? []).map((output) => output ?? []);
	const engineError = taskData?.error ?? run.data.resultData.error;
	return {
		items: outputs[0] ?? [],
		outputs,
		error: engineError && (thrown.error ?? engineError),
		engineError,
		runData,
		run,
		nodeName: nodeUnderTest.name,
	};
}

const main = (node: string, index = 0) => ({ node, type: NodeConnectionTypes.Main, index });

/** Input -> node under test; or Input -> loop -> node under test -> back to the loop. */
function connectionsOf(nodeName: string, looped: boolean): IConnections {
	if (!looped) return { [INPUT_NODE_NAME]: { main: [[main(nodeName)]] } };
	return {
		[INPUT_NODE_NAME]: { main: [[main(LOOP_NODE_NAME)]] },
		[LOOP_NODE_NAME]: { main: [[], [main(nodeName)]] },
		[nodeName]: { main: [[main(LOOP_NODE_NAME)]] },
	};
}

/**
 * What n8n's ExecutionService.retry hands to the new execution: the failed execution's data as
 * stored (a JSON copy), without its error and without the failed run of the node that failed,
 * which is still on the execution stack with its input. Its flow context goes along.
 */
function retryData(failed: ActionResult): IRunExecutionData {
	const data = JSON.parse(JSON.stringify(failed.run.data)) as IRunExecutionData;
	const { lastNodeExecuted } = data.resultData;
	delete data.resultData.error;
	const nodeRuns = lastNodeExecuted ? data.resultData.runData[lastNodeExecuted] : undefined;
	if (nodeRuns?.at(-1)?.error !== undefined) nodeRuns.pop();
	return data;
}
