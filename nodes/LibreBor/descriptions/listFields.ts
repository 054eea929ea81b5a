import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readNumericOption } from '../helpers/numericOption';
import { byVersion } from './byVersion';

const returnAll: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

/**
 * "Return All" and "Limit", as n8n's Get Many operations have them: version 2 returns up to 50 unless
 * asked for all (as n8n's own nodes do; an AI agent gets a bounded answer); version 1 returned all.
 */
const limit: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

export const returnAllFields: INodeProperties[] = [
	...byVersion({ ...returnAll, default: true }, returnAll),
	limit,
];

/** Return All (off) and Limit (50) of an operation that only the newer versions have. */
export const returnAllOffFields: INodeProperties[] = [returnAll, limit];

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
