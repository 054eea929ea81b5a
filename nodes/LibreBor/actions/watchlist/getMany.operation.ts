import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { listWatchedEntities } from '../../api/watchlist';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import { readLimit, returnAllFields } from '../../descriptions/listFields';
import {
	optionsCollection,
	readRequestOptions,
	timeoutOption,
} from '../../descriptions/requestOptions';

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
