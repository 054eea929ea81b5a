import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { unfollowCompany } from '../../api/watchlist';
import { companyFields, optionsCollection, pacedRequestOptions } from '../../descriptions';
import { executeWatchlistChange } from './watchlistChange';

const displayOptions = { show: { resource: ['watchlist'], operation: ['unfollow'] } };

const properties: INodeProperties[] = [
	...companyFields('remove from the watch list'),
	optionsCollection(pacedRequestOptions),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeWatchlistChange.call(this, {
		followedAfter: false,
		send: unfollowCompany,
		changed: 'unfollowed',
		unchanged: 'not_followed',
	});
}
