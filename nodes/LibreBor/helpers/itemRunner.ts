import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { mapWithConcurrency } from './concurrency';
import {
	endNodeRun,
	startNodeRun,
	type ItemRequest,
	type NodeRun,
	type RunSettings,
} from './nodeRun';

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

/** The output item of a failed input item, under "continue on fail". */
function errorItem(nodeError: NodeApiError | NodeOperationError, itemIndex: number) {
	const failed: INodeExecutionData = {
		json: { error: nodeError.message },
		error: nodeError,
		pairedItem: { item: itemIndex },
	};
	return failed;
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
 * The run as its items see it, with a cancel signal that also fires on `stop()`: a first failure
 * stops the other items' waits, transfers and the requests still queued in the run's pacer.
 */
export function stoppableRun(run: NodeRun): { run: NodeRun; stop: () => void } {
	const stop = new AbortController();
	const signals = [run.cancelSignal, stop.signal].filter((signal) => signal !== undefined);
	return { run: { ...run, cancelSignal: AbortSignal.any(signals) }, stop: () => stop.abort() };
}

/**
 * Starts the node's run and runs one operation for every input item of it, keeping the output in
 * input order. Up to the pacing's ceiling of items run at once; the run's pacer decides how many
 * of their requests are in flight. With "continue on fail", a failing item becomes an error item
 * paired with its input and the other items go on; otherwise the first failure stops the node:
 * nothing more is sent, and the node fails with that item's error.
 */
export async function runForEachItem(
	context: IExecuteFunctions,
	settings: RunSettings,
	operation: (item: ItemRequest) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const items = context.getInputData();
	const { run, stop } = stoppableRun(startNodeRun(context, settings, items.length));
	const ceiling = settings.pacing.ceiling;
	let firstFailure: { error: Error } | undefined;
	try {
		const perItem = await mapWithConcurrency(items.length, ceiling, async (itemIndex) => {
			try {
				const result = await operation({ run, itemIndex });
				run.progress.done++;
				return result;
			} catch (error) {
				const nodeError = asNodeError(context, error, itemIndex);
				if (!context.continueOnFail()) {
					firstFailure ??= { error: nodeError };
					stop();
					throw nodeError;
				}
				return [errorItem(nodeError, itemIndex)];
			}
		});
		return perItem.flat();
	} catch (error) {
		// The items the failure stopped fail too, as cancelled: the node reports the first failure.
		throw firstFailure?.error ?? error;
	} finally {
		endNodeRun(run);
	}
}

/**
 * Starts the node's run and hands it to `start`, which starts the work of every input item at once
 * and gives back one promise per item, in input order: for items that mostly wait (for a document
 * LibreBOR is preparing), side by side. The output is runForEachItem's. With "continue on fail"
 * each failure is an error item; otherwise the first item to fail stops the run: the run's cancel
 * signal fires for every other item (it stops waiting, downloading or sending), and the node fails
 * with that item's error once they have all stopped.
 */
export async function runAllItems(
	context: IExecuteFunctions,
	settings: RunSettings,
	start: (run: NodeRun) => Array<Promise<ItemResult>>,
): Promise<INodeExecutionData[]> {
	const { run, stop } = stoppableRun(
		startNodeRun(context, settings, context.getInputData().length),
	);
	const continueOnFail = context.continueOnFail();
	let firstFailure: { error: Error } | undefined;
	const perItem = await Promise.all(
		start(run).map(async (work, itemIndex) => {
			try {
				const result = await work;
				run.progress.done++;
				return result;
			} catch (error) {
				const nodeError = asNodeError(context, error, itemIndex);
				if (continueOnFail) return [errorItem(nodeError, itemIndex)];
				firstFailure ??= { error: nodeError };
				stop();
				return [];
			}
		}),
	).finally(() => endNodeRun(run));
	if (firstFailure) throw firstFailure.error;
	return perItem.flat();
}
