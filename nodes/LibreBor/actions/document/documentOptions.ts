import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { byVersion } from '../../descriptions';
import type { RunSettings } from '../../run/nodeRun';
import { readNumericOption, secondsToTimerMs } from '../../parameters/numericOption';
import { MB } from '../../time/units';
import { DEFAULT_MAX_DOWNLOAD_MB } from '../../transport/download';

const DEFAULT_POLL_INTERVAL_S = 60;
const DEFAULT_MAX_WAIT_S = 1800;

const pollIntervalOption: INodeProperties = {
	displayName: 'Poll Interval (Seconds)',
	name: 'pollInterval',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_POLL_INTERVAL_S,
	description: 'How often to ask LibreBOR whether the document is ready while it is processing',
};

/**
 * Poll Interval is the longest gap between two checks (pollGaps.ts) in every version;
 * version 1 keeps the text its editor always showed.
 */
export const pollIntervalOptions: INodeProperties[] = byVersion(pollIntervalOption, {
	...pollIntervalOption,
	description:
		'The longest gap between two checks whether the document is ready. The first check comes a second after the order (at once for Download), and each gap is a quarter longer than the one before, up to this.',
});

export const maxWaitOption: INodeProperties = {
	displayName: 'Max Wait (Seconds)',
	name: 'maxWait',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_MAX_WAIT_S,
	description:
		'How long to wait for a processing document before failing. The error carries the document ID so the Download operation can pick it up later.',
};

export const maxDownloadSizeOption: INodeProperties = {
	displayName: 'Max Download Size (MB)',
	name: 'maxDownloadMb',
	type: 'number',
	typeOptions: { minValue: 0.01, numberPrecision: 2 },
	default: DEFAULT_MAX_DOWNLOAD_MB,
	description:
		'The largest file the node downloads. A bigger one is stopped during the transfer, nothing of it is kept, and the item fails with an error that says so. Annual accounts are usually a few MB.',
};

/** The size cap of a download, in bytes. */
export function readMaxDownloadBytes(context: IExecuteFunctions, itemIndex: number): number {
	const megabytes = readNumericOption(
		context.getNode(),
		context.getNodeParameter('options.maxDownloadMb', itemIndex, DEFAULT_MAX_DOWNLOAD_MB),
		{
			label: maxDownloadSizeOption.displayName,
			fallback: DEFAULT_MAX_DOWNLOAD_MB,
			minimum: 0.01,
			consequence: 'No order was sent and nothing was downloaded for this item.',
		},
		itemIndex,
	);
	return Math.round(megabytes * MB);
}

export const binaryPropertyOption: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
};

/** How an item waits for its document while LibreBOR prepares it. */
export interface WaitSettings {
	pollIntervalMs: number;
	maxWaitMs: number;
}

/**
 * The output binary field an item's file goes in (`parameter`: Download's own field, or Order's
 * option); an empty name, which an expression can give, is refused: no later node could read it.
 */
export function readBinaryPropertyName(
	context: IExecuteFunctions,
	parameter: string,
	itemIndex: number,
): string {
	const name = context.getNodeParameter(parameter, itemIndex, 'data');
	if (typeof name === 'string' && name.trim() !== '') return name.trim();
	throw new NodeOperationError(
		context.getNode(),
		`"${binaryPropertyOption.displayName}" must be a field name, not "${String(name)}"`,
		{
			itemIndex,
			description: `Enter the name of the binary field to put the file in, such as data (the default), or fix the expression that sets it. Nothing was sent for this item.`,
		},
	);
}

/** How an item downloads its document's file. */
export interface FileSettings {
	/** Past this many bytes the transfer stops and the item fails. */
	maxBytes: number;
	/** The output binary field the file goes in. */
	binaryPropertyName: string;
}

/**
 * The settings of a run whose items wait for documents: its Time Budget, which bounds how long the
 * run may take while LibreBOR asks it to slow down, counts from the end of the longest Max Wait,
 * so that a 429 late in a long wait is waited out like one at the start.
 */
export function withWaitBudget(settings: RunSettings, longestWaitMs: number): RunSettings {
	const budgetMs = settings.pacing.budgetMs + longestWaitMs;
	return { ...settings, pacing: { ...settings.pacing, budgetMs } };
}

export function readWaitSettings(context: IExecuteFunctions, itemIndex: number): WaitSettings {
	const node = context.getNode();
	const consequence = 'No order was sent and nothing was downloaded for this item.';
	const pollInterval = readNumericOption(
		node,
		context.getNodeParameter('options.pollInterval', itemIndex, DEFAULT_POLL_INTERVAL_S),
		{
			label: pollIntervalOption.displayName,
			fallback: DEFAULT_POLL_INTERVAL_S,
			minimum: 1,
			consequence,
		},
		itemIndex,
	);
	const maxWait = readNumericOption(
		node,
		context.getNodeParameter('options.maxWait', itemIndex, DEFAULT_MAX_WAIT_S),
		{ label: maxWaitOption.displayName, fallback: DEFAULT_MAX_WAIT_S, minimum: 0, consequence },
		itemIndex,
	);
	return { pollIntervalMs: secondsToTimerMs(pollInterval), maxWaitMs: maxWait * 1000 };
}
