import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { searchCompanies, searchPeople, type SearchPage } from '../api/registry';
import { SEARCH_CAP } from '../api/registryPaging';
import type { RequestSettings } from '../run/nodeRun';
import { LIST_SEARCH_RUN_SETTINGS, startNodeRun } from '../run/nodeRun';
import type { LibreBorFunctions } from '../transport/request';

type RegistrySearch = (
	this: LibreBorFunctions,
	search: { query: string },
	page: number,
	request: RequestSettings,
) => Promise<SearchPage>;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A result as "<name> (<details>)", its slug as the value; none without a slug. */
function listItem(result: IDataObject, details: unknown[]): INodeListSearchItems | undefined {
	const slug = text(result.slug);
	const shown = details.map(text).filter(Boolean).join(', ');
	const name = text(result.name) || slug;
	return slug ? { name: shown ? `${name} (${shown})` : name, value: slug } : undefined;
}

/**
 * A picker's list: one page of LibreBOR's search for the words typed, the editor's pagination
 * token carrying the next page. Nothing typed, nothing asked: LibreBOR's search needs words.
 */
function registryListSearch(search: RegistrySearch, detailsOf: (result: IDataObject) => unknown[]) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const query = (filter ?? '').trim();
		if (query === '') return { results: [] };
		const page = Math.max(1, Number.parseInt(paginationToken ?? '1', 10) || 1);
		const request = { run: startNodeRun(this, LIST_SEARCH_RUN_SETTINGS) };
		const found = await search.call(this, { query }, page, request);
		const results = found.results
			.map((result) => listItem(result, detailsOf(result)))
			.filter((item) => item !== undefined);
		// Past LibreBOR's 200 results (its pages all of one size) the list asks for no page, as Search.
		const pastCap = page * found.results.length >= SEARCH_CAP;
		return { results, paginationToken: pastCap ? undefined : found.nextPage?.toString() };
	};
}

/** Companies of the registry as "<name> (<province>, <status>)". */
export const searchRegistryCompanies = registryListSearch(searchCompanies, (company) => [
	company.province,
	company.status,
]);

/** People of the registry as "<name> (<province>)". */
export const searchRegistryPeople = registryListSearch(searchPeople, (person) => [person.province]);
