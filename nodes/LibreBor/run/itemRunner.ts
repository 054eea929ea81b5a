import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type IPairedItemData,
} from 'n8n-workflow';

import { mapWithConcurrency } from './concurrency';
import type { NodeError } from './nodeErrors';
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
function asItemError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number | undefined,
): NodeError {
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
export function errorItem(
	nodeError: NodeError,
	pairedItem: IPairedItemData | IPairedItemData[] | number,
): INodeExecutionData {
	const paired = typeof pairedItem === 'number' ? { item: pairedItem } : pairedItem;
	return { json: { error: nodeError.message }, error: nodeError, pairedItem: paired };
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
function stoppableRun(run: NodeRun): { run: NodeRun; stop: () => void } {
	const stop = new AbortController();
	const signals = [run.cancelSignal, stop.signal].filter((signal) => signal !== undefined);
	return { run: { ...run, cancelSignal: AbortSignal.any(signals) }, stop: () => stop.abort() };
}

/** How one task of a run ended: its value, its error, or not done because the run stopped first. */
export type Settled<T> = { value: T } | { error: NodeError } | { stopped: true };

/** What a run does for one of its tasks, given the run as its tasks see it. */
type Task<T> = (index: number, run: NodeRun) => Promise<T>;

/**
 * The one way the action node's tasks run: `count` tasks, up to `ceiling` at once, each settled on
 * its own. A finished task counts as done. Under "continue on fail" every failure is kept and the
 * other tasks go on; otherwise the first failure stops the run: no task starts any more, the run's
 * cancel signal stops those in flight, and they settle as stopped, so that the first failure is
 * the only error. `itemIndexOf` names the input item of a task, for its error.
 */
export async function settleTasks<T>(
	context: IExecuteFunctions,
	run: NodeRun,
	count: number,
	ceiling: number,
	task: Task<T>,
	itemIndexOf: (index: number) => number | undefined = (index) => index,
): Promise<Array<Settled<T>>> {
	const continueOnFail = context.continueOnFail();
	const { run: stoppable, stop } = stoppableRun(run);
	let stopped = false;
	return await mapWithConcurrency(count, ceiling, async (index): Promise<Settled<T>> => {
		if (stopped) return { stopped: true };
		try {
			const value = await task(index, stoppable);
			run.progress.done++;
			return { value };
		} catch (error) {
			// A task the first failure stopped (queued, or cut short) is one not done.
			if (stopped) return { stopped: true };
			if (!continueOnFail) {
				stopped = true;
				stop();
			}
			return { error: asItemError(context, error, itemIndexOf(index)) };
		}
	});
}

/**
 * The node's output for the settled items of a run: each item's output items in input order, a
 * failure as an error item paired with its input under "continue on fail"; otherwise the node fails
 * with the first failure.
 */
function outputOf(settled: Array<Settled<ItemResult>>): INodeExecutionData[] {
	return settled.flatMap((outcome, itemIndex) => {
		if ('value' in outcome) return outcome.value;
		if ('error' in outcome) return [errorItem(outcome.error, itemIndex)];
		return [];
	});
}

/** Throws the failure that stopped the run, if one did. */
function throwStoppingFailure(context: IExecuteFunctions, settled: Array<Settled<unknown>>): void {
	if (context.continueOnFail()) return;
	const failure = settled.find((outcome) => 'error' in outcome);
	if (failure) throw failure.error;
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
	const run = startNodeRun(context, settings, items.length);
	try {
		const settled = await settleTasks(
			context,
			run,
			items.length,
			settings.pacing.ceiling,
			(itemIndex, itemRun) => operation({ run: itemRun, itemIndex }),
		);
		throwStoppingFailure(context, settled);
		return outputOf(settled);
	} finally {
		endNodeRun(run);
	}
}

/**
 * Starts the node's run and hands it to `start`, which starts the work of every input item at once
 * and gives back one promise per item, in input order: for items that mostly wait (for a document
 * LibreBOR is preparing), side by side. Settled and output as runForEachItem's items are.
 */
export async function runAllItems(
	context: IExecuteFunctions,
	settings: RunSettings,
	start: (run: NodeRun) => Array<Promise<ItemResult>>,
): Promise<INodeExecutionData[]> {
	const count = context.getInputData().length;
	const run = startNodeRun(context, settings, count);
	let started: Array<Promise<ItemResult>> | undefined;
	try {
		// Every task is asked for at once (ceiling: all), so that `start` runs once, before any awaits.
		const settled = await settleTasks(context, run, count, count, async (itemIndex, itemRun) => {
			started ??= start(itemRun);
			return await started[itemIndex];
		});
		throwStoppingFailure(context, settled);
		return outputOf(settled);
	} finally {
		endNodeRun(run);
	}
}
