import type { INodeProperties } from 'n8n-workflow';

import * as download from './download.operation';
import * as get from './get.operation';
import * as order from './order.operation';

export { download, get, order };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Download',
				value: 'download',
				description: 'Download the file of an ordered document, waiting while it is processing',
				action: 'Download document',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get the status and download link of an ordered document',
				action: 'Get document',
			},
			{
				name: 'Order',
				value: 'order',
				description:
					"Spends money: orders (and pays for) a company's annual accounts for a year from the LibreBOR prepaid balance; can wait and download the file",
				action: 'Order annual accounts',
			},
		],
		default: 'order',
	},
	...order.description,
	...get.description,
	...download.description,
];
