import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_PARALLEL_REQUESTS } from '../pacing/pacer';

export const MAX_CONCURRENCY = 100;

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

/** The options of an operation that sends one request per item, by what they set. */
export const pacedOptionFields = {
	concurrency: concurrencyOption,
	budget: budgetOption,
	timeout: timeoutOption,
};

export const pacedRequestOptions = Object.values(pacedOptionFields);

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
