import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { markAllAlertsAsRead } from '../../api/alerts';
import { pairRecords, runForEachItem } from '../../run/itemRunner';
import { timeoutOptions } from '../../descriptions';
import { readOneItemAtATimeSettings } from '../../parameters/runSettings';

const displayOptions = { show: { resource: ['alert'], operation: ['markAllAsRead'] } };

const properties: INodeProperties[] = [timeoutOptions];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const settings = readOneItemAtATimeSettings(this);
	return await runForEachItem(this, settings, async (item) =>
		pairRecords(item.itemIndex, [await markAllAlertsAsRead.call(this, item)]),
	);
}
