import type { PerOperation } from '../nodes/LibreBor/actions/node.type.ts';
import { operations } from '../nodes/LibreBor/actions/router.ts';

export type { PerOperation };

/** One operation of the LibreBOR node, as its Resource and Operation parameters name it. */
export interface NodeOperation {
	resource: string;
	operation: string;
}

const keyOf = ({ resource, operation }: NodeOperation) => `${resource} > ${operation}`;

/** Every operation of the LibreBOR node, from the table its router dispatches on. */
export const nodeOperations: NodeOperation[] = Object.entries(operations).flatMap(
	([resource, ofResource]) => Object.keys(ofResource).map((operation) => ({ resource, operation })),
);

/** The entries of a table with one value per operation, each with its operation. */
export function entriesOf<T>(table: PerOperation<T>): Array<NodeOperation & { value: T }> {
	return Object.entries(table).flatMap(([resource, ofResource]) =>
		Object.entries(ofResource as Record<string, T>).map(([operation, value]) => ({
			resource,
			operation,
			value,
		})),
	);
}

/**
 * The operations of the node (as "resource > operation") that `covered` does not name: a test that
 * must cover every operation fails with them, so that a new operation cannot go untested.
 */
export function operationsNotIn(covered: NodeOperation[]): string[] {
	const coveredKeys = new Set(covered.map(keyOf));
	return nodeOperations.map(keyOf).filter((key) => !coveredKeys.has(key));
}
