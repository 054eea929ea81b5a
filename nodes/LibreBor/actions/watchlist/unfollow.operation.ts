import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { unfollowCompany } from '../../api/watchlist';
import { pairWith, runForEachItem } from '../../helpers/itemRunner';
import { validateNif } from '../../helpers/validation';
import { concurrencyOption, optionsCollection, readRequestOptions, timeoutOption } from '../commonOptions';
import { nifField } from './follow.operation';
import { WatchlistState } from './watchlistCache';

const showFor = { resource: ['watchlist'], operation: ['unfollow'] };

export const description: INodeProperties[] = [
	nifField('unfollow', 'remove from the watch list'),
	optionsCollection(showFor, [concurrencyOption, timeoutOption]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs, concurrency } = readRequestOptions(this);
	const watchlist = new WatchlistState(this, { timeoutMs });
	return await runForEachItem(this, concurrency, async (itemIndex) => {
		const nif = validateNif(this.getNode(), this.getNodeParameter('nif', itemIndex), itemIndex);
		const outcome = await watchlist.apply(
			nif,
			(followed) => !followed,
			async () => ({
				result: await unfollowCompany.call(this, nif, { itemIndex, timeoutMs }),
				followedAfter: false,
			}),
		);
		const answer = outcome.result;
		return pairWith(itemIndex, [
			answer ? { ...answer, nif, change: 'unfollowed' } : { result: 'success', nif, change: 'not_followed' },
		]);
	});
}
