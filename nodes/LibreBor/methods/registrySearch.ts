import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { searchCompanies, searchPeople, type SearchPage } from '../api/registry';
import { DEFAULT_RUN_SETTINGS, startNodeRun } from '../helpers/nodeRun';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * One page of LibreBOR's search for the words typed, the editor's pagination token carrying the
 * next page. Nothing typed, nothing asked: LibreBOR's search needs words of the name.
 */
async function registryPage(
	filter: string | undefined,
	paginationToken: string | undefined,
	search: (query: string, page: number) => Promise<SearchPage>,
	toItem: (result: IDataObject) => INodeListSearchItems | undefined,
): Promise<INodeListSearchResult> {
	const query = (filter ?? '').trim();
	if (query === '') return { results: [] };
	const page = Math.max(1, Number.parseInt(paginationToken ?? '1', 10) || 1);
	const found = await search(query, page);
	const results = found.results.map(toItem).filter((item) => item !== undefined);
	return { results, paginationToken: found.nextPage?.toString() };
}

/** Companies of the registry as "<name> (<province>, <status>)", their slug as the value. */
export async function searchRegistryCompanies(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const request = { run: startNodeRun(this, DEFAULT_RUN_SETTINGS) };
	return await registryPage(
		filter,
		paginationToken,
		async (query, page) => await searchCompanies.call(this, { query }, page, request),
		(company) => {
			const slug = text(company.slug);
			const details = [text(company.province), text(company.status)].filter(Boolean).join(', ');
			const name = text(company.name) || slug;
			return slug ? { name: details ? `${name} (${details})` : name, value: slug } : undefined;
		},
	);
}

/** People of the registry as "<name> (<province>)", their slug as the value. */
export async function searchRegistryPeople(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const request = { run: startNodeRun(this, DEFAULT_RUN_SETTINGS) };
	return await registryPage(
		filter,
		paginationToken,
		async (query, page) => await searchPeople.call(this, { query }, page, request),
		(person) => {
			const slug = text(person.slug);
			const province = text(person.province);
			const name = text(person.name) || slug;
			return slug ? { name: province ? `${name} (${province})` : name, value: slug } : undefined;
		},
	);
}
