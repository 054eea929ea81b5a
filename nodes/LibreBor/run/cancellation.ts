import { NodeOperationError, type INode } from 'n8n-workflow';

import { sleep } from '../time/clock';
import type { RequestSettings } from './nodeRun';

export function cancelledError(node: INode, what: string, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(node, `${what} was stopped because the execution was cancelled`, {
		itemIndex,
		description: 'Nothing more was sent for this item after the cancel.',
	});
}

/**
 * Waits, unless the run is cancelled meanwhile: then it fails at once instead of keeping a
 * cancelled execution polling for minutes.
 */
export async function waitUnlessCancelled(
	node: INode,
	request: RequestSettings,
	ms: number,
	what: string,
): Promise<void> {
	const signal = request.run.cancelSignal;
	// An aborted signal ends the sleep at once.
	await sleep(ms, signal);
	if (signal?.aborted) throw cancelledError(node, what, request.itemIndex);
}
