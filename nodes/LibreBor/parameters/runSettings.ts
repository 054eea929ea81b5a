import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { MAX_CONCURRENCY, pacedOptionFields } from '../descriptions/requestOptions';
import { DEFAULT_BUDGET_MS, DEFAULT_PARALLEL_REQUESTS, ONE_ITEM_AT_A_TIME } from '../pacing/pacer';
import { DEFAULT_TIMEOUT_MS, type RunSettings } from '../run/nodeRun';
import { readNumericOption, secondsToTimerMs } from './numericOption';

/** Request Timeout (Seconds) as a timer's delay, refused when an expression made it unusable. */
export function readTimeoutMs(node: INode, value: unknown, consequence?: string): number {
	const seconds = readNumericOption(node, value, {
		label: pacedOptionFields.timeout.displayName,
		fallback: DEFAULT_TIMEOUT_MS / 1000,
		minimum: 0.1,
		consequence,
	});
	return secondsToTimerMs(seconds);
}

/**
 * The run settings of the node's Options collection (read once: they are not per item): Parallel
 * Requests as the pacer's ceiling, the Time Budget and the Request Timeout.
 */
export function readRunSettings(context: IExecuteFunctions): RunSettings {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const node = context.getNode();
	const concurrency = Math.floor(
		readNumericOption(node, options.concurrency, {
			label: pacedOptionFields.concurrency.displayName,
			fallback: DEFAULT_PARALLEL_REQUESTS,
			minimum: 1,
			maximum: MAX_CONCURRENCY,
		}),
	);
	const budgetMinutes = readNumericOption(node, options.budgetMinutes, {
		label: pacedOptionFields.budget.displayName,
		fallback: DEFAULT_BUDGET_MS / 60_000,
		minimum: 0.01,
	});
	return {
		pacing: { ceiling: concurrency, budgetMs: Math.round(budgetMinutes * 60_000) },
		timeoutMs: readTimeoutMs(node, options.timeout),
	};
}

/** For an operation that runs its items one after another (lists, orders): its Request Timeout. */
export function readOneItemAtATimeSettings(context: IExecuteFunctions): RunSettings {
	return { ...readRunSettings(context), pacing: ONE_ITEM_AT_A_TIME };
}
