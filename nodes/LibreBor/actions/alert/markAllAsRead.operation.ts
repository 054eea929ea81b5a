import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { markAllAlertsAsRead } from '../../api/alerts';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import { optionsCollection, readRequestOptions, timeoutOption } from '../../descriptions';

const displayOptions = { show: { resource: ['alert'], operation: ['markAllAsRead'] } };

const properties: INodeProperties[] = [optionsCollection([timeoutOption])];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestOptions(this);
	return await runForEachItem(this, 1, async (itemIndex) =>
		pairRecords(itemIndex, [await markAllAlertsAsRead.call(this, { itemIndex, timeoutMs })]),
	);
}
