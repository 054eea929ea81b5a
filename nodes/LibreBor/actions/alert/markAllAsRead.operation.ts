import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { markAllAlertsAsRead } from '../../api/alerts';
import { pairWith, runForEachItem } from '../../helpers/itemRunner';
import { readRequestOptions, timeoutOption } from '../commonOptions';

const showFor = { resource: ['alert'], operation: ['markAllAsRead'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showFor },
		options: [timeoutOption],
	},
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestOptions(this);
	return await runForEachItem(this, 1, async (itemIndex) =>
		pairWith(itemIndex, [await markAllAlertsAsRead.call(this, itemIndex, timeoutMs)]),
	);
}
