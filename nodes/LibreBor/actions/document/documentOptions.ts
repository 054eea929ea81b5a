import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readNumericOption } from '../../helpers/numericOption';

export const DEFAULT_POLL_INTERVAL_S = 60;
export const DEFAULT_MAX_WAIT_S = 1800;

export const pollIntervalOption: INodeProperties = {
	displayName: 'Poll Interval (Seconds)',
	name: 'pollInterval',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_POLL_INTERVAL_S,
	description: 'How often to ask LibreBOR whether the document is ready while it is processing',
};

export const maxWaitOption: INodeProperties = {
	displayName: 'Max Wait (Seconds)',
	name: 'maxWait',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_MAX_WAIT_S,
	description:
		'How long to wait for a processing document before failing. The error carries the document ID so the Download operation can pick it up later.',
};

export const binaryPropertyOption = (name: string): INodeProperties => ({
	displayName: 'Put Output File in Field',
	name,
	type: 'string',
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
});

export interface WaitSettings {
	pollIntervalMs: number;
	maxWaitMs: number;
}

export function readWaitSettings(context: IExecuteFunctions, itemIndex: number): WaitSettings {
	const node = context.getNode();
	const consequence = 'No order was sent and nothing was downloaded for this item.';
	const pollInterval = readNumericOption(
		node,
		context.getNodeParameter('options.pollInterval', itemIndex, DEFAULT_POLL_INTERVAL_S),
		{ label: pollIntervalOption.displayName, fallback: DEFAULT_POLL_INTERVAL_S, minimum: 1, consequence },
		itemIndex,
	);
	const maxWait = readNumericOption(
		node,
		context.getNodeParameter('options.maxWait', itemIndex, DEFAULT_MAX_WAIT_S),
		{ label: maxWaitOption.displayName, fallback: DEFAULT_MAX_WAIT_S, minimum: 0, consequence },
		itemIndex,
	);
	return { pollIntervalMs: pollInterval * 1000, maxWaitMs: maxWait * 1000 };
}
