import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getIncorporation from './getIncorporation.operation';
import * as search from './search.operation';

export { get, getIncorporation, search };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['company'], '@version': [{ _cnd: { gte: 3 } }] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: "Get a company's registry record by name, NIF or slug",
				action: 'Get company',
				builderHint: {
					propertyHint:
						'Read-only, spends nothing: status, address, capital, officers of one company',
				},
			},
			{
				name: 'Get Incorporation',
				value: 'getIncorporation',
				description: "Get a company's incorporation: date and registry data",
				action: 'Get company incorporation',
			},
			{
				name: 'Search',
				value: 'search',
				description: 'Search companies in the registry by words of their name',
				action: 'Search companies',
				builderHint: {
					propertyHint:
						'Read-only, spends nothing: start here from a company name to find its slug, then Get',
				},
			},
		],
		default: 'search',
	},
	...search.description,
	...get.description,
	...getIncorporation.description,
];
