import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

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
	const pollInterval = context.getNodeParameter('options.pollInterval', itemIndex, DEFAULT_POLL_INTERVAL_S) as number;
	const maxWait = context.getNodeParameter('options.maxWait', itemIndex, DEFAULT_MAX_WAIT_S) as number;
	if (!(pollInterval >= 1) || !(maxWait >= 0)) {
		throw new NodeOperationError(context.getNode(), 'The poll interval or the max wait is not valid', {
			itemIndex,
			description: 'Use a poll interval of at least 1 second and a max wait of 0 seconds or more.',
		});
	}
	return { pollIntervalMs: pollInterval * 1000, maxWaitMs: maxWait * 1000 };
}
