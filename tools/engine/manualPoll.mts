import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { createAdditionalData } from './additionalData.mts';
import type { HarnessCredentialsHelper } from './credentialsHelper.mts';
import type { HarnessNodeTypes } from './nodeTypes.mts';

let manualRunCounter = 0;

/**
 * A manual run of a polling trigger ("Fetch Test Event"): WorkflowExecute in manual mode
 * calls `poll()` through a manual PollContext. Nothing of its static data is saved.
 */
export async function runManualPoll(options: {
	node: INode;
	nodeTypes: HarnessNodeTypes;
	credentialsHelper: HarnessCredentialsHelper;
	staticData: IDataObject;
}): Promise<INodeExecutionData[][] | null> {
	const workflowData: IWorkflowBase = {
		id: 'harness-poll-workflow',
		name: 'Poll trigger under test',
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [structuredClone(options.node)],
		connections: {},
		settings: { executionOrder: 'v1' },
		staticData: structuredClone(options.staticData),
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes: options.nodeTypes });
	const executionId = `manual-${++manualRunCounter}`;
	const additionalData = createAdditionalData({
		credentialsHelper: options.credentialsHelper,
		workflowId: workflowData.id,
		executionId,
		hooks: new ExecutionLifecycleHooks('manual', executionId, workflowData),
	});

	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode(options.node.name)!,
	});

	const taskData = run.data.resultData.runData[options.node.name]?.[0];
	const error = taskData?.error ?? run.data.resultData.error;
	if (error) throw error;
	const outputs = taskData?.data?.main;
	return outputs?.length ? outputs.map((output) => output ?? []) : null;
}
