import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import type { SearchPage } from '../api/registry';
import { readLimit } from '../parameters/listLimit';
import { readRunSettings } from '../parameters/runSettings';
import { pairRecords, runForEachItem } from '../run/itemRunner';
import type { ItemRequest } from '../run/nodeRun';
import { SEARCH_CAP } from '../api/registryPaging';

/** Fetches one page (from 1) of an item's search. */
export type PageFetcher = (
	this: IExecuteFunctions,
	item: ItemRequest,
	page: number,
) => Promise<SearchPage>;

/**
 * The results of a search, page after page until the limit, the end or LibreBOR's cap of 200:
 * past it no page is asked for, whatever `next_page` says. `total` is the whole count LibreBOR gave.
 */
async function collectResults(
	context: IExecuteFunctions,
	fetchPage: PageFetcher,
	item: ItemRequest,
	limit: number,
): Promise<{ results: IDataObject[]; total?: number }> {
	const wanted = Math.min(limit, SEARCH_CAP);
	const results: IDataObject[] = [];
	let total: number | undefined;
	for (let page: number | undefined = 1; page !== undefined && results.length < wanted; ) {
		const found: SearchPage = await fetchPage.call(context, item, page);
		results.push(...found.results);
		total ??= found.total;
		page = found.results.length > 0 ? found.nextPage : undefined;
	}
	return { results: results.slice(0, wanted), total };
}

function readQuery(context: IExecuteFunctions, itemIndex: number): string {
	const query = String(context.getNodeParameter('query', itemIndex, '') ?? '').trim();
	if (query === '')
		throw new NodeOperationError(context.getNode(), 'The query is empty', {
			itemIndex,
			description: 'Enter words of the name to search for, such as "brisas llobregat".',
		});
	return query;
}

/**
 * Company and Person > Search: one item per result, each item's search through the run's pacer;
 * `narrowing` says how to narrow a search LibreBOR cuts at 200 results.
 */
export async function executeSearch(
	this: IExecuteFunctions,
	search: (query: string, itemIndex: number) => PageFetcher,
	narrowing: string,
): Promise<INodeExecutionData[]> {
	let cappedTotal = 0;
	const items = await runForEachItem(this, readRunSettings(this), async (item) => {
		const fetchPage = search(readQuery(this, item.itemIndex), item.itemIndex);
		const limit = readLimit(this, item.itemIndex);
		const { results, total } = await collectResults(this, fetchPage, item, limit);
		if (limit > SEARCH_CAP && total !== undefined && total > SEARCH_CAP)
			cappedTotal = Math.max(cappedTotal, total);
		return pairRecords(item.itemIndex, results);
	});
	if (cappedTotal > 0)
		this.addExecutionHints({
			message: `LibreBOR lists only the first ${SEARCH_CAP} of the ${cappedTotal} results of a search. ${narrowing}`,
			type: 'info',
			location: 'outputPane',
		});
	return items;
}
