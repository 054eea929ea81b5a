import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as markAllAsRead from './markAllAsRead.operation';
import * as markAsRead from './markAsRead.operation';

export { getMany, markAllAsRead, markAsRead };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['alert'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get the unread alerts about the companies on the watch list',
				action: 'Get many unread alerts',
			},
			{
				name: 'Mark All as Read',
				value: 'markAllAsRead',
				description: 'Mark every unread alert as read',
				action: 'Mark all alerts as read',
			},
			{
				name: 'Mark as Read',
				value: 'markAsRead',
				description: 'Mark one alert as read by its ID',
				action: 'Mark alert as read',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
	...markAsRead.description,
	...markAllAsRead.description,
];
