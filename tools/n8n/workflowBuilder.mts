import { randomUUID } from 'node:crypto';

import type { INodeParameters } from 'n8n-workflow';

/** A node of a workflow as n8n imports it. */
export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
	credentials?: Record<string, { id: string; name: string }>;
	/** Run once, with the first input item only. */
	executeOnce?: boolean;
	/** `continueRegularOutput` is the editor's "On Error: Continue". */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
}

export const manualTrigger = (name = 'Start'): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
});

export const noOp = (name: string): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	parameters: {},
});

/** A Set node that outputs one item with this JSON. */
export const jsonItem = (name: string, json: object): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.set',
	typeVersion: 3.4,
	parameters: { mode: 'raw', jsonOutput: JSON.stringify(json), options: {} },
});

/** A Schedule Trigger firing every few seconds while the workflow is published. */
export const everyFewSeconds = (name: string, seconds: number): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.scheduleTrigger',
	typeVersion: 1.2,
	parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: seconds }] } },
});

/** A node that always fails the execution, as a broken notification step would. */
export const stopAndError = (name: string, message: string): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.stopAndError',
	typeVersion: 1,
	parameters: { errorMessage: message },
});

/** One item per element of an array field. */
export const splitOut = (name: string, field: string): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	parameters: { fieldToSplitOut: field, options: {} },
});

/** A workflow as `n8n import:workflow` takes it. */
export interface WorkflowDefinition {
	id: string;
	name: string;
	active: false;
	/** n8n 2.0's `import:workflow` requires one; later releases replace it with a new one. */
	versionId: string;
	settings: { executionOrder: 'v1' };
	nodes: Array<WorkflowNode & { id: string; position: [number, number] }>;
	connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: 0 }>> }>;
}

/**
 * A workflow whose connections are given as chains of node names; chains may share their first
 * node (a trigger with several branches). Each chain gets a row of the canvas, top to bottom,
 * which is also the order n8n (execution order v1) runs the branches of one node in.
 */
export function workflow(
	id: string,
	name: string,
	nodes: WorkflowNode[],
	chains: string[][],
): WorkflowDefinition {
	const positions = new Map<string, [number, number]>();
	const connections: WorkflowDefinition['connections'] = {};
	chains.forEach((chain, row) => {
		// A chain that continues from a placed node starts to the right of it.
		const [startX] = positions.get(chain[0]) ?? [0];
		chain.forEach((nodeName, column) => {
			if (!nodes.some((node) => node.name === nodeName))
				throw new Error(`No node named "${nodeName}"`);
			if (!positions.has(nodeName)) positions.set(nodeName, [startX + column * 240, row * 200]);
			const next = chain[column + 1];
			if (next === undefined) return;
			connections[nodeName] ??= { main: [[]] };
			const targets = connections[nodeName].main[0];
			if (!targets.some((target) => target.node === next))
				targets.push({ node: next, type: 'main', index: 0 });
		});
	});
	return {
		id,
		name,
		active: false,
		versionId: randomUUID(),
		settings: { executionOrder: 'v1' },
		nodes: nodes.map((node) => ({
			id: randomUUID(),
			position: positions.get(node.name) ?? [0, 0],
			...node,
		})),
		connections,
	};
}
