import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { mapWithConcurrency } from './concurrency';

export type ItemResult = INodeExecutionData[];

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/** Pairs every output of an input item with that item, as n8n's item linking expects. */
export function pairWith(itemIndex: number, results: Array<IDataObject | INodeExecutionData>): ItemResult {
	return results.map((result) => {
		const item = 'json' in result && typeof result.json === 'object' ? (result as INodeExecutionData) : { json: result as IDataObject };
		return { ...item, pairedItem: { item: itemIndex } };
	});
}

/**
 * Runs one operation for every input item, `concurrency` at a time, keeping the output in
 * input order. With "continue on fail", a failing item becomes an error item paired with its
 * input and the other items go on; otherwise the first failure stops the node.
 */
export async function runForEachItem(
	context: IExecuteFunctions,
	concurrency: number,
	operation: (itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const items = context.getInputData();
	const perItem = await mapWithConcurrency(items.length, concurrency, async (itemIndex) => {
		try {
			return await operation(itemIndex);
		} catch (error) {
			const nodeError = asNodeError(context, error, itemIndex);
			if (!context.continueOnFail()) throw nodeError;
			const failed: INodeExecutionData = {
				json: { error: nodeError.message },
				error: nodeError,
				pairedItem: { item: itemIndex },
			};
			return [failed];
		}
	});
	return perItem.flat();
}
