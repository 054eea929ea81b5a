import type { INodeProperties } from 'n8n-workflow';

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
export const limitField: INodeProperties = {
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
	limitField,
];

/** Return All (off) and Limit (50) of an operation that only the newer versions have. */
export const returnAllOffFields: INodeProperties[] = [returnAll, limitField];
