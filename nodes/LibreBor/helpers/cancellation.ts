import { NodeOperationError, type INode } from 'n8n-workflow';

/** Any node context; only an execution's can be cancelled. */
export interface Cancellable {
	getNode(): INode;
	getExecutionCancelSignal?(): AbortSignal | undefined;
}

export function cancelledError(
	context: Cancellable,
	what: string,
	itemIndex?: number,
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`${what} was stopped because the execution was cancelled`,
		{
			itemIndex,
			description: 'Nothing more was sent for this item after the cancel.',
		},
	);
}

/**
 * Waits, unless the execution is cancelled meanwhile: then it fails at once instead of keeping a
 * cancelled execution polling for minutes.
 */
export async function waitUnlessCancelled(
	context: Cancellable,
	ms: number,
	what: string,
	itemIndex?: number,
): Promise<void> {
	const signal = context.getExecutionCancelSignal?.();
	if (signal?.aborted) throw cancelledError(context, what, itemIndex);
	const elapsed = AbortSignal.timeout(ms);
	const either = signal ? AbortSignal.any([elapsed, signal]) : elapsed;
	await new Promise<void>((resolve) =>
		either.addEventListener('abort', () => resolve(), { once: true }),
	);
	if (signal?.aborted) throw cancelledError(context, what, itemIndex);
}
