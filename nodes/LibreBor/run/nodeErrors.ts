import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

/** The errors a node run reports to n8n. */
export type NodeError = NodeApiError | NodeOperationError;

/** `error` as n8n's node error: one of them as it is, anything else wrapped (for `itemIndex`). */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, itemIndex === undefined ? {} : { itemIndex });
}
