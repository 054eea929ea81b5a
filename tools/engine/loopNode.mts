import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export const LOOP_NODE_TYPE = 'harness.loop';
export const LOOP_NODE_NAME = 'Loop Over Items';

/**
 * A test-only "Loop Over Items" (n8n's Split In Batches, version 3): hands its input to the node
 * under test `batchSize` items at a time on its "loop" output (the second), the node's output
 * coming back to it, until none is left; then it outputs everything on "done" (the first).
 * So the node under test runs several times in one execution, as in a user's loop.
 */
export function createLoopNodeType(batchSize: number): INodeType {
	return {
		description: {
			displayName: 'Loop Over Items',
			name: 'loop',
			group: ['organization'],
			version: 1,
			description: 'Runs the next node once per batch of items',
			defaults: { name: LOOP_NODE_NAME },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
			outputNames: ['done', 'loop'],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const memory = this.getContext('node') as IDataObject & {
				left?: INodeExecutionData[];
				done?: INodeExecutionData[];
			};
			const input = this.getInputData();
			if (memory.left === undefined) {
				memory.left = input.map((item, index) => ({
					json: item.json,
					pairedItem: { item: index },
				}));
				memory.done = [];
			} else {
				memory.done!.push(...input);
			}
			const batch = memory.left.splice(0, batchSize);
			return batch.length > 0 ? [[], batch] : [memory.done!, []];
		},
	};
}
