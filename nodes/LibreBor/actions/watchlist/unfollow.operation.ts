import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { unfollowCompany } from '../../api/watchlist';
import {
	budgetOption,
	companyFields,
	concurrencyOption,
	optionsCollection,
	timeoutOption,
} from '../commonOptions';
import { executeWatchlistChange } from './watchlistChange';

const showFor = { resource: ['watchlist'], operation: ['unfollow'] };

export const description: INodeProperties[] = [
	...companyFields(showFor, 'remove from the watch list'),
	optionsCollection(showFor, [concurrencyOption, budgetOption, timeoutOption]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeWatchlistChange.call(this, {
		followedAfter: false,
		send: unfollowCompany,
		changed: 'unfollowed',
		unchanged: 'not_followed',
	});
}
