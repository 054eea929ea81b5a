import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listWatchedEntities } from '../../api/watchlist';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import {
	optionsCollection,
	readLimit,
	readRequestOptions,
	returnAllFields,
	timeoutOption,
} from '../../descriptions';

const displayOptions = { show: { resource: ['watchlist'], operation: ['getMany'] } };

const properties: INodeProperties[] = [...returnAllFields, optionsCollection([timeoutOption])];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestOptions(this);
	return await runForEachItem(this, 1, async (itemIndex) => {
		const limit = readLimit(this, itemIndex);
		const entities = await listWatchedEntities.call(this, { itemIndex, timeoutMs });
		return pairRecords(itemIndex, entities.slice(0, limit));
	});
}
