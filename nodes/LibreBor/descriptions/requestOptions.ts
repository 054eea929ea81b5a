import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, type RunSettings } from '../helpers/nodeRun';
import { readNumericOption, secondsToTimerMs } from '../helpers/numericOption';
import { DEFAULT_BUDGET_MS, DEFAULT_PARALLEL_REQUESTS, ONE_ITEM_AT_A_TIME } from '../helpers/pacer';

const MAX_CONCURRENCY = 100;

export const timeoutOption: INodeProperties = {
	displayName: 'Request Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	default: 30,
	description: 'How long to wait for LibreBOR to answer a single request',
};

const concurrencyOption: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: DEFAULT_PARALLEL_REQUESTS,
	description:
		'The most requests sent to LibreBOR at the same time. The node starts with a few, sends more while LibreBOR answers fine, and when LibreBOR answers 429 or 503 (too many requests) it pauses every item for as long as LibreBOR asks and sends fewer at once.',
};

const budgetOption: INodeProperties = {
	displayName: 'Time Budget (Minutes)',
	name: 'budgetMinutes',
	type: 'number',
	typeOptions: { minValue: 0.01, numberPrecision: 2 },
	default: 5,
	description:
		'How long the whole run may take while LibreBOR asks it to slow down (429 or 503). Once spent, the items not done fail with an error that says how many were done.',
};

/** The options of an operation that sends one request per item. */
export const pacedRequestOptions = [concurrencyOption, budgetOption, timeoutOption];

/** Request Timeout (Seconds) as a timer's delay, refused when an expression made it unusable. */
export function readTimeoutMs(node: INode, value: unknown, consequence?: string): number {
	const seconds = readNumericOption(node, value, {
		label: timeoutOption.displayName,
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
			label: concurrencyOption.displayName,
			fallback: DEFAULT_PARALLEL_REQUESTS,
			minimum: 1,
			maximum: MAX_CONCURRENCY,
		}),
	);
	const budgetMinutes = readNumericOption(node, options.budgetMinutes, {
		label: budgetOption.displayName,
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

/** The operation's "Options" collection. */
export const optionsCollection = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options,
});

/** The Options of an operation that sends one request per run of its items: Request Timeout alone. */
export const timeoutOptions = optionsCollection([timeoutOption]);
