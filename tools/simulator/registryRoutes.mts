// The seven registry look-up endpoints (GET, Basic auth, through the same pipeline as the others).
// The definition shows their shapes; what it leaves open is modelled here and said so.
import { jsonAnswer, type Answer } from './httpIo.mts';
import { isValidNif } from './nif.mts';
import type { Registry } from './registry.mts';
import { INE_PROVINCES } from './registryData.mts';
import {
	companyView,
	incorporationView,
	nifInfoView,
	personSearchResultOf,
	personView,
	searchResultOf,
} from './registryViews.mts';
import type { LoggedRequest } from './types.mts';

type Params = Record<string, string>;
export type RegistryHandler = (
	params: Params,
	match: RegExpExecArray,
	request: LoggedRequest,
) => Answer;

/** The error body the definition shows: `{ "error": { "message", "code" } }`. */
export const registryError = (status: number, code: string, message: string): Answer =>
	jsonAnswer(status, { error: { message, code } });

const notFound = (what: string) => registryError(404, 'NOT_FOUND', `${what} not found.`);

/**
 * One page of a search, as `{ <listKey>: [...], count_results, total_results, next_page }`. Only
 * the first 200 results can be listed (the definition's cap), so the pages end there even when
 * total_results counts more. A page past the last answers 404, as Django REST framework's
 * paginator does (not shown by the definition).
 */
function searchAnswer<T>(
	registry: Registry,
	listKey: 'companies' | 'people',
	results: T[],
	view: (result: T) => object,
	params: Params,
	request: LoggedRequest,
): Answer {
	const page = params.page === undefined || params.page === '' ? 1 : Number(params.page);
	const listed = results.slice(0, registry.searchCap);
	const pages = Math.max(1, Math.ceil(listed.length / registry.pageSize));
	if (!Number.isInteger(page) || page < 1 || page > pages)
		return registryError(404, 'NOT_FOUND', `Invalid page: ${params.page}.`);
	const start = (page - 1) * registry.pageSize;
	const shown = listed.slice(start, start + registry.pageSize).map(view);
	return jsonAnswer(200, {
		[listKey]: shown,
		count_results: shown.length,
		total_results: results.length,
		...(page < pages
			? { next_page: nextPage(registry, page + 1, params, request) }
			: lastPage(registry)),
	});
}

function nextPage(
	registry: Registry,
	page: number,
	params: Params,
	request: LoggedRequest,
): string {
	if (registry.nextPageForm === 'number') return String(page);
	const url = new URL(`https://${request.headers.host}${request.path}`);
	for (const [name, value] of Object.entries({ ...params, page: String(page) }))
		url.searchParams.set(name, value);
	return registry.nextPageForm === 'url' ? url.toString() : `${url.pathname}${url.search}`;
}

function lastPage(registry: Registry): Record<string, unknown> {
	if (registry.lastPageForm === 'absent') return {};
	return { next_page: registry.lastPageForm === 'empty' ? '' : null };
}

const missingQuery = (params: Params) =>
	(params.query ?? '').trim() === ''
		? registryError(400, 'MISSING_PARAMETER', 'The query parameter is required.')
		: undefined;

function searchHandlers(registry: Registry) {
	const companySearch: RegistryHandler = (params, _match, request) => {
		const missing = missingQuery(params);
		if (missing) return missing;
		const province = params.province?.trim() ? params.province : undefined;
		const found = registry.searchCompanies(params.query, province);
		return searchAnswer(registry, 'companies', found, searchResultOf, params, request);
	};

	const personSearch: RegistryHandler = (params, _match, request) => {
		const missing = missingQuery(params);
		if (missing) return missing;
		// Person search takes the province as an INE code from 1 to 52; the code of the error for
		// another value is not shown ("INVALID_PARAMETER" is this simulator's).
		let province: string | undefined;
		if (params.province !== undefined && params.province !== '') {
			const code = Number(params.province);
			if (!Number.isInteger(code) || code < 1 || code > 52)
				return registryError(400, 'INVALID_PARAMETER', `Invalid province: ${params.province}.`);
			province = INE_PROVINCES[code - 1];
		}
		const found = registry.searchPeople(params.query, province);
		return searchAnswer(registry, 'people', found, personSearchResultOf, params, request);
	};

	return { companySearch, personSearch };
}

function recordHandlers(registry: Registry) {
	const companyByNif: RegistryHandler = (_params, match) => {
		const nif = decodeURIComponent(match[1]);
		if (!isValidNif(nif)) return registryError(400, 'INVALID_NIF', `Invalid NIF: ${nif}.`);
		const company = registry.companyByNif(nif);
		return company ? jsonAnswer(200, { company: companyView(company) }) : notFound('Company');
	};

	const companyBySlug: RegistryHandler = (_params, match) => {
		const company = registry.companyBySlug(decodeURIComponent(match[1]));
		return company ? jsonAnswer(200, { company: companyView(company) }) : notFound('Company');
	};

	const incorporation: RegistryHandler = (_params, match) => {
		const company = registry.companyBySlug(decodeURIComponent(match[1]));
		return company ? jsonAnswer(200, incorporationView(company)) : notFound('Company');
	};

	const personBySlug: RegistryHandler = (_params, match) => {
		const person = registry.personBySlug(decodeURIComponent(match[1]));
		return person ? jsonAnswer(200, personView(person)) : notFound('Person');
	};

	// The definition shows only a 500 besides the answer: an invalid NIF is an answer with `valid: false`.
	const nifInfo: RegistryHandler = (_params, match) => {
		const nif = decodeURIComponent(match[1]).toUpperCase();
		const valid = isValidNif(nif);
		return jsonAnswer(200, nifInfoView(nif, valid, valid ? registry.companyByNif(nif) : undefined));
	};

	return {
		companyByNif,
		companyBySlug,
		incorporation,
		personBySlug,
		nifInfo,
	};
}

/** The routes, most specific first (the first pattern that matches the path decides). */
export function registryRoutes(registry: Registry) {
	const handlers = { ...searchHandlers(registry), ...recordHandlers(registry) };
	const get = (pattern: RegExp, handler: RegistryHandler) => ({ method: 'GET', pattern, handler });
	return [
		get(/^\/v2\/company\/search\/$/, handlers.companySearch),
		get(/^\/v2\/company\/by-nif\/([^/]+)\/$/, handlers.companyByNif),
		get(/^\/v2\/company\/by-slug\/([^/]+)\/incorporation\/$/, handlers.incorporation),
		get(/^\/v2\/company\/by-slug\/([^/]+)\/$/, handlers.companyBySlug),
		get(/^\/v2\/person\/search\/$/, handlers.personSearch),
		get(/^\/v2\/person\/by-slug\/([^/]+)\/$/, handlers.personBySlug),
		get(/^\/v2\/utils\/nif-info\/([^/]+)\/$/, handlers.nifInfo),
	];
}
