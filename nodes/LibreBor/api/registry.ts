import type { IDataObject, NodeApiError } from 'n8n-workflow';

import type { RequestSettings } from '../run/nodeRun';
import { nextPageOf } from './registryPaging';
import { apiError, serverMessage } from '../transport/errors';
import {
	expectObject,
	isServiceNotFound,
	libreBorRequest,
	unexpectedJson,
	type ApiResponse,
	type LibreBorFunctions,
} from '../transport/request';

/** One page of a registry search: its results, the page after it (none at the end) and the whole count. */
export interface SearchPage {
	results: IDataObject[];
	nextPage?: number;
	total?: number;
}

/** A look-up is a read: paced with the run's other requests and retried; a 404 is the caller's to explain. */
async function lookUp(
	context: LibreBorFunctions,
	path: string,
	request: RequestSettings,
): Promise<ApiResponse> {
	return await libreBorRequest.call(
		context,
		{ method: 'GET', path, retry: 'idempotent', acceptStatuses: [404] },
		request,
	);
}

/** The errors that are LibreBOR's own "not found" (see isNotFound). */
const notFoundErrors = new WeakSet<Error>();

/** Whether the error says LibreBOR has no such record: its own JSON 404, not a web page's. */
export function isNotFound(error: unknown): boolean {
	return error instanceof Error && notFoundErrors.has(error);
}

/** The 404 of a look-up, as "LibreBOR has no <what>" and what to do, with what LibreBOR said. */
function notFound(response: ApiResponse, what: string, todo: string): NodeApiError {
	const said = serverMessage(response.body);
	const error = apiError(
		response.errorContext,
		404,
		`LibreBOR has no ${what} (404)`,
		`${todo}${said ? ` LibreBOR said: "${said}"` : ''}`,
	);
	notFoundErrors.add(error);
	return error;
}

const COMPANY_BY_NAME =
	'Search the company by name instead (Company > Search, or From List in the Company field) and use its slug.';

/** The object under `key` of an answer (`{ company: {...} }`), or the answer itself when not wrapped. */
function recordOf(response: ApiResponse, key?: string): IDataObject {
	const answer = expectObject(response);
	if (key === undefined) return answer;
	const record = answer[key];
	if (!record || typeof record !== 'object' || Array.isArray(record))
		throw unexpectedJson(response, answer);
	return record as IDataObject;
}

async function searchPage(
	context: LibreBorFunctions,
	path: string,
	listKey: 'companies' | 'people',
	page: number,
	request: RequestSettings,
): Promise<SearchPage> {
	const response = await lookUp(context, path, request);
	if (isServiceNotFound(response))
		throw notFound(response, `page ${page} of this search`, 'Run the search again.');
	const answer = expectObject(response);
	const results = answer[listKey];
	if (!Array.isArray(results) || !results.every((result) => result && typeof result === 'object'))
		throw unexpectedJson(response, answer);
	const total = typeof answer.total_results === 'number' ? answer.total_results : undefined;
	return { results: results as IDataObject[], nextPage: nextPageOf(answer.next_page, page), total };
}

const searchPath = (path: string, parameters: Record<string, string | undefined>) => {
	const query = new URLSearchParams();
	for (const [name, value] of Object.entries(parameters))
		if (value !== undefined && value !== '') query.set(name, value);
	return `${path}?${query.toString()}`;
};

export async function searchCompanies(
	this: LibreBorFunctions,
	search: { query: string; province?: string },
	page: number,
	request: RequestSettings,
): Promise<SearchPage> {
	const parameters = { query: search.query, province: search.province, page: String(page) };
	const path = searchPath('/company/search/', parameters);
	return await searchPage(this, path, 'companies', page, request);
}

export async function searchPeople(
	this: LibreBorFunctions,
	search: { query: string },
	page: number,
	request: RequestSettings,
): Promise<SearchPage> {
	const path = searchPath('/person/search/', { query: search.query, page: String(page) });
	return await searchPage(this, path, 'people', page, request);
}

/** A record of the registry; a 404 is the error that says what was missing and what to do. */
async function getRecord(
	context: LibreBorFunctions,
	path: string,
	request: RequestSettings,
	missing: { what: string; todo: string; key?: string },
): Promise<IDataObject> {
	const response = await lookUp(context, path, request);
	if (isServiceNotFound(response)) throw notFound(response, missing.what, missing.todo);
	return recordOf(response, missing.key);
}

export async function getCompanyByNif(
	this: LibreBorFunctions,
	nif: string,
	request: RequestSettings,
): Promise<IDataObject> {
	return await getRecord(this, `/company/by-nif/${encodeURIComponent(nif)}/`, request, {
		what: `company with NIF ${nif}`,
		todo: `The NIF is well formed, but LibreBOR's registry does not list it (a company registered very recently, or one LibreBOR knows only by name). ${COMPANY_BY_NAME}`,
		key: 'company',
	});
}

export async function getCompanyBySlug(
	this: LibreBorFunctions,
	slug: string,
	request: RequestSettings,
): Promise<IDataObject> {
	return await getRecord(this, `/company/by-slug/${encodeURIComponent(slug)}/`, request, {
		what: `company with the slug "${slug}"`,
		todo: `Check the slug: it is the "slug" of a search result or the "entity_slug" of an alert. ${COMPANY_BY_NAME}`,
		key: 'company',
	});
}

/** The incorporation record, which LibreBOR sends without a wrapper. */
export async function getIncorporation(
	this: LibreBorFunctions,
	slug: string,
	request: RequestSettings,
): Promise<IDataObject> {
	const path = `/company/by-slug/${encodeURIComponent(slug)}/incorporation/`;
	return await getRecord(this, path, request, {
		what: `incorporation record for the company "${slug}"`,
		todo: `Check the company's slug. ${COMPANY_BY_NAME}`,
	});
}

/** A person, which LibreBOR sends without a wrapper. */
export async function getPersonBySlug(
	this: LibreBorFunctions,
	slug: string,
	request: RequestSettings,
): Promise<IDataObject> {
	return await getRecord(this, `/person/by-slug/${encodeURIComponent(slug)}/`, request, {
		what: `person with the slug "${slug}"`,
		todo: 'Check the slug: it is the "slug_person" of an alert\'s position or the "slug" of a search result. Or search the person by name (Person > Search, or From List in the Person field).',
	});
}

export async function getNifInfo(
	this: LibreBorFunctions,
	nif: string,
	request: RequestSettings,
): Promise<IDataObject> {
	return await getRecord(this, `/utils/nif-info/${encodeURIComponent(nif)}/`, request, {
		what: `information on the NIF ${nif}`,
		todo: 'Check the NIF.',
	});
}
