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

/**
 * The error an item fails with, carrying that item's index: n8n's own errors as a copy, since one
 * failure may be shared by several items (a watch-list read), and anything else wrapped.
 */
function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
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
 * Settles the items of a run one by one: a finished item counts as done; under "continue on fail" a
 * failed one becomes an error item paired with its input, otherwise the first failure stops the
 * run (`stop`) and is the one the node reports.
 */
function itemSettler(context: IExecuteFunctions, run: NodeRun, stop: () => void) {
	const continueOnFail = context.continueOnFail();
	let firstFailure: Error | undefined;
	return {
		firstFailure: () => firstFailure,
		async settle(itemIndex: number, work: () => Promise<ItemResult>): Promise<ItemResult> {
			try {
				const result = await work();
				run.progress.done++;
				return result;
			} catch (error) {
				const nodeError = asNodeError(context, error, itemIndex);
				if (continueOnFail) return [errorItem(nodeError, itemIndex)];
				firstFailure ??= nodeError;
				stop();
				throw nodeError;
			}
		},
	};
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
	const settler = itemSettler(context, run, stop);
	try {
		const perItem = await mapWithConcurrency(items.length, settings.pacing.ceiling, (itemIndex) =>
			settler.settle(itemIndex, async () => await operation({ run, itemIndex })),
		);
		return perItem.flat();
	} catch (error) {
		// The items the failure stopped fail too, as cancelled: the node reports the first failure.
		throw settler.firstFailure() ?? error;
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
	const settler = itemSettler(context, run, stop);
	const perItem = await Promise.all(
		start(run).map(async (work, itemIndex) =>
			settler.settle(itemIndex, async () => await work).catch((): ItemResult => []),
		),
	).finally(() => endNodeRun(run));
	const firstFailure = settler.firstFailure();
	if (firstFailure) throw firstFailure;
	return perItem.flat();
}
