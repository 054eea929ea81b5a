import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { mapWithConcurrency } from './concurrency';
import { endNodeRun, startNodeRun, type ItemRequest, type RunSettings } from './nodeRun';

type ItemResult = INodeExecutionData[];

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) {
			error.context.itemIndex = itemIndex;
			return error;
		}
		if (error.context.itemIndex === itemIndex) return error;
		// One failure shared by several items (a watch-list read): each item gets its own copy.
		const copy = Object.create(
			Object.getPrototypeOf(error),
			Object.getOwnPropertyDescriptors(error),
		) as typeof error;
		copy.context = { ...error.context, itemIndex };
		return copy;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/** Pairs every output of an input item with that item, as n8n's item linking expects. */
export function pairWith(itemIndex: number, items: INodeExecutionData[]): ItemResult {
	return items.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
}

/**
 * Output items for API records, paired with their input item. A record is always an item's
 * `json`, whatever keys it has: an answer can never set an item's `binary`, `error` or `pairedItem`.
 */
export function pairRecords(itemIndex: number, records: IDataObject[]): ItemResult {
	return pairWith(
		itemIndex,
		records.map((record) => ({ json: record })),
	);
}

/**
 * Starts the node's run and runs one operation for every input item of it, keeping the output in
 * input order. Up to the pacing's ceiling of items run at once; the run's pacer decides how many
 * of their requests are in flight. With "continue on fail", a failing item becomes an error item
 * paired with its input and the other items go on; otherwise the first failure stops the node.
 */
export async function runForEachItem(
	context: IExecuteFunctions,
	settings: RunSettings,
	operation: (item: ItemRequest) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const items = context.getInputData();
	const run = startNodeRun(context, settings, items.length);
	const ceiling = settings.pacing.ceiling;
	const perItem = await mapWithConcurrency(items.length, ceiling, async (itemIndex) => {
		try {
			const result = await operation({ run, itemIndex });
			run.progress.done++;
			return result;
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
	}).finally(() => endNodeRun(run));
	return perItem.flat();
}
