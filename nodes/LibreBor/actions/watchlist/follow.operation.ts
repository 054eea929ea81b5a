import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { followCompany } from '../../api/watchlist';
import {
	budgetOption,
	concurrencyOption,
	nifField,
	optionsCollection,
	timeoutOption,
} from '../commonOptions';
import { executeWatchlistChange } from './watchlistChange';

const showFor = { resource: ['watchlist'], operation: ['follow'] };

export const description: INodeProperties[] = [
	nifField(
		showFor,
		'add to the watch list; LibreBOR then creates an alert each time it appears in the BORME',
	),
	optionsCollection(showFor, [concurrencyOption, budgetOption, timeoutOption]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeWatchlistChange.call(this, {
		followedAfter: true,
		send: followCompany,
		changed: 'followed',
		unchanged: 'already_followed',
	});
}
