import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { DEFAULT_BUDGET_MS, DEFAULT_PARALLEL_REQUESTS, type PacerSettings } from '../helpers/pacer';
import { readNumericOption, secondsToTimerMs } from '../helpers/numericOption';
import { DEFAULT_TIMEOUT_MS } from '../transport/request';
import { byVersion, companyLocator } from './versionedFields';

export const DEFAULT_CONCURRENCY = DEFAULT_PARALLEL_REQUESTS;
export const MAX_CONCURRENCY = 100;

export const timeoutOption: INodeProperties = {
	displayName: 'Request Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	default: 30,
	description: 'How long to wait for LibreBOR to answer a single request',
};

export const concurrencyOption: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: DEFAULT_CONCURRENCY,
	description:
		'The most requests sent to LibreBOR at the same time. The node starts with a few, sends more while LibreBOR answers fine, and when LibreBOR answers 429 or 503 (too many requests) it pauses every item for as long as LibreBOR asks and sends fewer at once.',
};

export const budgetOption: INodeProperties = {
	displayName: 'Time Budget (Minutes)',
	name: 'budgetMinutes',
	type: 'number',
	typeOptions: { minValue: 0.01, numberPrecision: 2 },
	default: 5,
	description:
		'How long the whole run may take while LibreBOR asks it to slow down (429 or 503). Once spent, the items not done fail with an error that says how many were done.',
};

export interface RequestOptions {
	timeoutMs: number;
	concurrency: number;
	/** The run's pacer settings: Parallel Requests as the ceiling and the time budget. */
	pacing: PacerSettings;
}

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

/** The request settings of the node's Options collection (read once: they are not per item). */
export function readRequestOptions(context: IExecuteFunctions): RequestOptions {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const node = context.getNode();
	const concurrency = Math.floor(
		readNumericOption(node, options.concurrency, {
			label: concurrencyOption.displayName,
			fallback: DEFAULT_CONCURRENCY,
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
		timeoutMs: readTimeoutMs(node, options.timeout),
		concurrency,
		pacing: { ceiling: concurrency, budgetMs: Math.round(budgetMinutes * 60_000) },
	};
}

type ShowFor = { resource: string[]; operation: string[] };

/** The company's NIF, checked before anything is sent (or spent). */
export function nifField(showFor: ShowFor, purpose: string): INodeProperties {
	return {
		displayName: 'NIF',
		name: 'nif',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. B64717838',
		description: `Spanish tax identifier (NIF/CIF) of the company to ${purpose}. Spaces, dashes and an ES prefix are removed; the check character is verified before anything is sent.`,
		displayOptions: { show: showFor },
	};
}

/** The NIF as a plain string in version 1, a company picked from the watch list or typed in version 2. */
export function companyFields(showFor: ShowFor, purpose: string): INodeProperties[] {
	return byVersion(showFor, nifField(showFor, purpose), companyLocator(purpose));
}

/** The operation's "Options" collection. */
export function optionsCollection(showFor: ShowFor, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showFor },
		options,
	};
}

/**
 * "Return All" and "Limit", as n8n's Get Many operations have them: version 2 returns up to 50 unless
 * asked for all (as n8n's own nodes do; an AI agent gets a bounded answer); version 1 returned all.
 */
export function returnAllFields(showFor: ShowFor): INodeProperties[] {
	const returnAll: INodeProperties = {
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	};
	return [
		...byVersion(showFor, { ...returnAll, default: true }, returnAll),
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...showFor, returnAll: [false] } },
		},
	];
}

/** How many results the user asked for: everything, or the Limit. */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number {
	if (context.getNodeParameter('returnAll', itemIndex)) return Infinity;
	const limit = readNumericOption(
		context.getNode(),
		context.getNodeParameter('limit', itemIndex),
		{ label: 'Limit', fallback: 50, minimum: 1, consequence: 'Nothing was read.' },
		itemIndex,
	);
	return Math.floor(limit);
}
