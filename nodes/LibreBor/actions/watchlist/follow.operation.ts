import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { followCompany } from '../../api/watchlist';
import {
	nifField,
	optionsCollection,
	pacedRequestOptions,
	withCompanyLocator,
} from '../../descriptions';
import { executeWatchlistChange } from './watchlistChange';

const displayOptions = { show: { resource: ['watchlist'], operation: ['follow'] } };

const properties: INodeProperties[] = [
	...withCompanyLocator(
		[
			nifField(
				'add to the watch list; LibreBOR then creates an alert each time it appears in the BORME',
			),
		],
		'add to the watch list; LibreBOR then creates an alert each time it appears in the BORME',
	),
	optionsCollection(pacedRequestOptions),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeWatchlistChange.call(this, {
		followedAfter: true,
		send: followCompany,
		changed: 'followed',
		unchanged: 'already_followed',
	});
}
