import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { byVersion } from '../../descriptions';

import * as download from './download.operation';
import * as get from './get.operation';
import * as order from './order/order.operation';

export { download, get, order };

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
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
	default: 'get',
};

export const description: INodeProperties[] = [
	// Version 2 opens on Get: the operation a new node starts with must never spend money.
	...updateDisplayOptions(
		{ show: { resource: ['document'] } },
		byVersion({ ...operation, default: 'order' }, operation),
	),
	...order.description,
	...get.description,
	...download.description,
];
