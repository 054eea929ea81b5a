import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { mapWithConcurrency } from './concurrency';
import { DEFAULT_BUDGET_MS, startPacer, type PacerSettings } from './pacer';

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
 * Runs one operation for every input item, keeping the output in input order. Up to the
 * ceiling of items run at once; the run's pacer decides how many of their requests are in
 * flight (a plain number: that many items at once, with the default time budget). With
 * "continue on fail", a failing item becomes an error item paired with its input and the
 * other items go on; otherwise the first failure stops the node.
 */
export async function runForEachItem(
	context: IExecuteFunctions,
	pacing: PacerSettings | number,
	operation: (itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const items = context.getInputData();
	const settings =
		typeof pacing === 'number' ? { ceiling: pacing, budgetMs: DEFAULT_BUDGET_MS } : pacing;
	const pacer = startPacer(context, settings);
	pacer.itemsTotal = items.length;
	const perItem = await mapWithConcurrency(items.length, settings.ceiling, async (itemIndex) => {
		try {
			const result = await operation(itemIndex);
			pacer.itemsDone++;
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
	});
	return perItem.flat();
}
