import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as search from './search.operation';

export { get, search };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['person'], '@version': [{ _cnd: { gte: 3 } }] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: "Get a person's registry record: their posts in companies, past and present",
				action: 'Get person',
				builderHint: {
					propertyHint:
						'Read-only, spends nothing: takes a person slug such as an alert position\'s "slug_person"',
				},
			},
			{
				name: 'Search',
				value: 'search',
				description: 'Search people in the registry by words of their name',
				action: 'Search people',
			},
		],
		default: 'search',
	},
	...search.description,
	...get.description,
];
