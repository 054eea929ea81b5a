import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { markAllAlertsAsRead } from '../../api/alerts';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import { ONE_ITEM_AT_A_TIME } from '../../helpers/pacer';
import { optionsCollection, readRunSettings, timeoutOption } from '../../descriptions';

const displayOptions = { show: { resource: ['alert'], operation: ['markAllAsRead'] } };

const properties: INodeProperties[] = [optionsCollection([timeoutOption])];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const settings = { ...readRunSettings(this), pacing: ONE_ITEM_AT_A_TIME };
	return await runForEachItem(this, settings, async (item) =>
		pairRecords(item.itemIndex, [await markAllAlertsAsRead.call(this, item)]),
	);
}
