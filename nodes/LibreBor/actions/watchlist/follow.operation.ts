import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { followCompany } from '../../api/watchlist';
import { pairWith, runForEachItem } from '../../helpers/itemRunner';
import { validateNif } from '../../helpers/validation';
import { concurrencyOption, optionsCollection, readRequestOptions, timeoutOption } from '../commonOptions';
import { WatchlistState } from './watchlistCache';

const showFor = { resource: ['watchlist'], operation: ['follow'] };

export const nifField = (operation: string, action: string): INodeProperties => ({
	displayName: 'NIF',
	name: 'nif',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. B64717838',
	description: `Spanish tax identifier (NIF/CIF) of the company to ${action}. Spaces, dashes and an ES prefix are removed; the check character is verified before anything is sent.`,
	displayOptions: { show: { resource: ['watchlist'], operation: [operation] } },
});

export const description: INodeProperties[] = [
	nifField('follow', 'add to the watch list; LibreBOR then creates an alert each time it appears in the BORME'),
	optionsCollection(showFor, [concurrencyOption, timeoutOption]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs, concurrency } = readRequestOptions(this);
	const watchlist = new WatchlistState(this, { timeoutMs });
	return await runForEachItem(this, concurrency, async (itemIndex) => {
		const nif = validateNif(this.getNode(), this.getNodeParameter('nif', itemIndex), itemIndex);
		const outcome = await watchlist.apply(
			nif,
			(followed) => followed,
			async () => ({
				result: await followCompany.call(this, nif, { itemIndex, timeoutMs }),
				followedAfter: true,
			}),
		);
		return pairWith(itemIndex, [
			outcome.skipped
				? { result: 'success', nif, change: 'already_followed' }
				: { ...outcome.result, nif, change: 'followed' },
		]);
	});
}
