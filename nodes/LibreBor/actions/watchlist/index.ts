import type { INodeProperties } from 'n8n-workflow';

import * as follow from './follow.operation';
import * as getMany from './getMany.operation';
import * as unfollow from './unfollow.operation';

export { follow, getMany, unfollow };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['watchlist'] } },
		options: [
			{
				name: 'Follow',
				value: 'follow',
				description:
					'Add a company to the watch list by its NIF, to get alerts when it appears in the BORME',
				action: 'Follow company',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get the companies on the watch list',
				action: 'Get many watched companies',
			},
			{
				name: 'Unfollow',
				value: 'unfollow',
				description: 'Remove a company from the watch list by its NIF',
				action: 'Unfollow company',
			},
		],
		default: 'follow',
	},
	...follow.description,
	...unfollow.description,
	...getMany.description,
];
