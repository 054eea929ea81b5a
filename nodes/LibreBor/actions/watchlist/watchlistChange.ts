import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { RequestSettings } from '../../api/watchlist';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import { readNif } from '../../helpers/identifierParameters';
import { readRequestOptions } from '../commonOptions';
import { WatchlistState } from './watchlistCache';

export interface WatchlistChange {
	/** Whether the company is on the watch list once the change is made. */
	followedAfter: boolean;
	/** Sends the change; undefined when the service says there was nothing to change. */
	send: (this: IExecuteFunctions, nif: string, settings: RequestSettings) => Promise<IDataObject | undefined>;
	/** The `change` reported when the list changed, and when it already was as wanted. */
	changed: string;
	unchanged: string;
}

/** Follow and Unfollow: one change per item, skipped when the list already is as wanted. */
export async function executeWatchlistChange(
	this: IExecuteFunctions,
	change: WatchlistChange,
): Promise<INodeExecutionData[]> {
	const { timeoutMs, pacing } = readRequestOptions(this);
	const watchlist = new WatchlistState(this, { timeoutMs });
	return await runForEachItem(this, pacing, async (itemIndex) => {
		const nif = readNif(this, itemIndex);
		const outcome = await watchlist.apply(
			nif,
			(followed) => followed === change.followedAfter,
			async () => ({
				result: await change.send.call(this, nif, { itemIndex, timeoutMs }),
				followedAfter: change.followedAfter,
			}),
		);
		const answer = outcome.result;
		return pairRecords(itemIndex, [
			answer ? { ...answer, nif, change: change.changed } : { result: 'success', nif, change: change.unchanged },
		]);
	});
}
