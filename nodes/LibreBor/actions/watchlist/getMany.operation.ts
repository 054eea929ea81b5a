import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { listWatchedEntities } from '../../api/watchlist';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import {
	optionsCollection,
	readLimit,
	readRequestOptions,
	returnAllFields,
	timeoutOption,
} from '../commonOptions';

const showFor = { resource: ['watchlist'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	...returnAllFields(showFor),
	optionsCollection(showFor, [timeoutOption]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestOptions(this);
	return await runForEachItem(this, 1, async (itemIndex) => {
		const limit = readLimit(this, itemIndex);
		const entities = await listWatchedEntities.call(this, { itemIndex, timeoutMs });
		return pairRecords(itemIndex, entities.slice(0, limit));
	});
}
