import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listWatchedEntities } from '../../api/watchlist';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import {
	readLimit,
	readOneItemAtATimeSettings,
	returnAllFields,
	timeoutOptions,
} from '../../descriptions';

const displayOptions = { show: { resource: ['watchlist'], operation: ['getMany'] } };

const properties: INodeProperties[] = [...returnAllFields, timeoutOptions];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const settings = readOneItemAtATimeSettings(this);
	return await runForEachItem(this, settings, async (item) => {
		const limit = readLimit(this, item.itemIndex);
		const entities = await listWatchedEntities.call(this, item);
		return pairRecords(item.itemIndex, entities.slice(0, limit));
	});
}
