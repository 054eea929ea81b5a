import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { runListSearch } from '../../tools/engine/index.mts';
import {
	credentialsFor,
	hintsOf,
	jsonOf,
	pairedItemsOf,
	runLibreBor,
	useSimulator,
	withLatency,
} from '../support/libreBor.mts';

const sim = useSimulator();
const locator = (mode: string, value: string) => ({ __rl: true as const, mode, value });
const SEARCH = '/v2/company/search/';
const pagesAsked = () =>
	sim()
		.requestsTo('GET', SEARCH)
		.map((request) => request.query.page);

const companySearch = (query: string, more: INodeParameters = {}) => ({
	resource: 'company',
	operation: 'search',
	query,
	...more,
});

describe('Company > Search', () => {
	it('with Return All, reads every page, whether next_page is a number, a URL or a path', async () => {
		sim().state.registry.addMany(25, 'TRANSPORTES RAPIDOS');
		for (const form of ['number', 'url', 'path'] as const) {
			sim().clearLog();
			sim().state.registry.nextPageForm = form;
			const result = await runLibreBor(sim(), companySearch(' rapidos  ', { returnAll: true }));
			expect(jsonOf(result).map((company) => company.slug)).toEqual(
				Array.from(
					{ length: 25 },
					(_, index) => `transportes-rapidos-${String(index + 1).padStart(4, '0')}`,
				),
			);
			expect(pagesAsked()).toEqual(['1', '2', '3']);
			expect(sim().requestsTo('GET', SEARCH)[0].query.query).toBe('rapidos');
			expect(sim().requestsTo('GET', SEARCH)[0].query).not.toHaveProperty('province');
			expect(hintsOf(result)).toEqual([]);
		}
	});

	it.each(['absent', 'empty', 'null'] as const)(
		'stops at the last page when next_page is %s there',
		async (lastPageForm) => {
			sim().state.registry.addMany(12, 'TRANSPORTES RAPIDOS');
			sim().state.registry.lastPageForm = lastPageForm;
			const result = await runLibreBor(sim(), companySearch('rapidos', { returnAll: true }));
			expect(result.items).toHaveLength(12);
			expect(pagesAsked()).toEqual(['1', '2']);
		},
	);

	it('stops asking at 200 results, even when LibreBOR offers more pages, and says so only when the Limit was cut', async () => {
		sim().state.registry.addMany(260, 'GRUPO ENORME');
		sim().state.registry.searchCap = Infinity;
		sim().state.registry.pageSize = 50;
		const result = await runLibreBor(sim(), companySearch('enorme', { returnAll: true }));
		expect(result.items).toHaveLength(200);
		expect(pagesAsked()).toEqual(['1', '2', '3', '4']);
		expect(hintsOf(result)).toEqual([
			'LibreBOR lists only the first 200 of the 260 results of a search. Add words of the name, or a Province, to narrow it.',
		]);
		// A Limit of 200 gets all it asked for; a search of exactly 200 results, read to its
		// 20th page of 10, is whole.
		const limited = await runLibreBor(sim(), companySearch('enorme', { limit: 200 }));
		expect(limited.items).toHaveLength(200);
		expect(hintsOf(limited)).toEqual([]);
		sim().state.registry.addMany(200, 'GRUPO JUSTO');
		sim().state.registry.pageSize = 10;
		sim().clearLog();
		const whole = await runLibreBor(sim(), companySearch('justo', { returnAll: true }));
		expect(whole.items).toHaveLength(200);
		expect(pagesAsked()).toEqual(Array.from({ length: 20 }, (_, index) => String(index + 1)));
		expect(hintsOf(whole)).toEqual([]);
	});

	it('ends a search whose next_page does not move forward or whose page is empty, and asks the API host only, whatever URL next_page names', async () => {
		const page = (nextPage: unknown, companies = [{ name: 'UNA SL', slug: 'una' }]) =>
			JSON.stringify({
				companies,
				count_results: companies.length,
				total_results: 40,
				next_page: nextPage,
			});
		// A page it already read, an empty page, and a URL that does not parse.
		for (const body of [page('1'), page('2', []), page('https://[bad?page=2')]) {
			sim().clearLog();
			sim().injectFault({ method: 'GET', path: SEARCH, status: 200, body });
			const stuck = await runLibreBor(sim(), companySearch('una', { returnAll: true }));
			expect(stuck.items).toHaveLength(JSON.parse(body).companies.length);
			expect(pagesAsked()).toEqual(['1']);
		}

		sim().state.registry.addMany(12, 'TRANSPORTES RAPIDOS');
		const elsewhere = 'https://elsewhere.example/v2/company/search/?query=rapidos&page=2';
		// next_page as a JSON number, or a number with spaces, reads as that page too.
		for (const nextPage of [elsewhere, 2, ' 2 ']) {
			sim().clearLog();
			sim().injectFault({ method: 'GET', path: SEARCH, status: 200, body: page(nextPage) });
			const moved = await runLibreBor(sim(), companySearch('rapidos', { returnAll: true }));
			expect(pagesAsked()).toEqual(['1', '2']);
			expect(jsonOf(moved).map((company) => company.slug)).toEqual([
				'una',
				'transportes-rapidos-0011',
				'transportes-rapidos-0012',
			]);
		}
	});

	it('fails on a page LibreBOR no longer has, or on results that are not records', async () => {
		const page = (companies: unknown[], nextPage: string | null = null) =>
			JSON.stringify({ companies, count_results: 1, total_results: 2, next_page: nextPage });
		const brisas = { name: 'BRISAS DEL LLOBREGAT SL', slug: 'brisas-del-llobregat' };
		// The second page is asked of the registry, where "brisas" fills one page only.
		sim().injectFault({ method: 'GET', path: SEARCH, status: 200, body: page([brisas], '2') });
		const gone = await runLibreBor(sim(), companySearch('brisas', { returnAll: true }));
		expect(gone.error?.message).toBe('LibreBOR has no page 2 of this search (404)');
		for (const companies of [[brisas, 'BRISAS'], [null]]) {
			sim().injectFault({ method: 'GET', path: SEARCH, status: 200, body: page(companies) });
			const odd = await runLibreBor(sim(), companySearch('brisas'));
			expect(odd.error?.message).toBe(
				'LibreBOR answered GET /company/search/?query=brisas&page=1 with JSON of an unexpected shape instead of the expected JSON',
			);
		}
	});

	it('returns up to Limit, asking only for the pages it needs', async () => {
		sim().state.registry.addMany(25, 'TRANSPORTES RAPIDOS');
		const result = await runLibreBor(sim(), companySearch('rapidos', { limit: 12 }));
		expect(result.items).toHaveLength(12);
		expect(pagesAsked()).toEqual(['1', '2']);
		expect(hintsOf(result)).toEqual([]);
	});

	it('sends the province and finds names with accents from words without them', async () => {
		const result = await runLibreBor(
			sim(),
			companySearch('panaderia senorio', { options: { province: ' Ávila ' } }),
		);
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ name: 'PANADERÍA SEÑORÍO DE ÁVILA SL', province: 'Ávila' }),
		]);
		expect(sim().requestsTo('GET', SEARCH)[0].query.province).toBe('Ávila');
		const elsewhere = await runLibreBor(
			sim(),
			companySearch('panaderia', { options: { province: 'Madrid' } }),
		);
		expect(elsewhere.items).toEqual([]);
	});

	it('searches once per input item, each output paired with its item, and refuses an empty query', async () => {
		const result = await runLibreBor(
			sim(),
			companySearch('={{ $json.name }}', { options: { province: '={{ $json.province }}' } }),
			{
				items: [
					{ name: 'brisas', province: null },
					{ name: '  ' },
					{ name: null },
					{ name: 'altamira' },
				],
				continueOnFail: true,
			},
		);
		expect(result.items.map((item) => item.json.slug ?? item.error?.message)).toEqual([
			'brisas-del-llobregat',
			'The query is empty',
			'The query is empty',
			'altamira-infraestructuras',
		]);
		expect(result.items[1].error?.description).toMatch(/^Enter words of the name/);
		expect(pairedItemsOf(result)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(pagesAsked()).toEqual(['1', '1']);
	});
});

const companyGet = (company: ReturnType<typeof locator>, operation = 'get') => ({
	resource: 'company',
	operation,
	company,
});

describe('Company > Get and Get Incorporation', () => {
	it('gets a company by NIF, normalised, and by slug', async () => {
		const byNif = await runLibreBor(sim(), companyGet(locator('nif', 'es-b 64717838')));
		expect(jsonOf(byNif)).toEqual([
			expect.objectContaining({ nif: 'B64717838', slug: 'brisas-del-llobregat' }),
		]);
		expect(sim().requestsTo('GET', '/v2/company/by-nif/B64717838/')).toHaveLength(1);
		// A look-up is a read: retried after a 503.
		sim().injectFault({ method: 'GET', path: '/v2/company/by-slug/*', status: 503, retryAfter: 0 });
		const bySlug = await runLibreBor(sim(), companyGet(locator('list', 'brisas-del-llobregat')));
		expect(jsonOf(bySlug)).toEqual(jsonOf(byNif));
		expect(sim().requestsTo('GET', '/v2/company/by-slug/')).toHaveLength(2);
	});

	it("tells a 404 page that is not LibreBOR's answer from a company LibreBOR does not have", async () => {
		sim().injectFault({
			method: 'GET',
			path: '/v2/company/by-nif/*',
			status: 404,
			body: '<!doctype html><title>Not Found</title>',
			contentType: 'text/html',
		});
		const result = await runLibreBor(sim(), companyGet(locator('nif', 'B64717838')));
		expect(result.error?.message).toBe('LibreBOR did not find what was asked for (404)');
		expect(result.error?.description).toContain('check the base URL of the credential');
	});

	it('fails on a company answer that holds no record', async () => {
		for (const company of [null, 'BRISAS DEL LLOBREGAT SL']) {
			const body = JSON.stringify({ company });
			sim().injectFault({ method: 'GET', path: '/v2/company/by-slug/*', status: 200, body });
			const result = await runLibreBor(sim(), companyGet(locator('slug', 'brisas-del-llobregat')));
			expect(result.error?.message).toBe(
				'LibreBOR answered GET /company/by-slug/brisas-del-llobregat/ with JSON of an unexpected shape instead of the expected JSON',
			);
		}
	});

	it('refuses an invalid NIF before any request', async () => {
		const result = await runLibreBor(sim(), companyGet(locator('nif', 'B64717839')));
		expect(result.error?.message).toBe(
			'The NIF "B64717839" is not valid: its CIF check character does not match',
		);
		expect(sim().requests).toEqual([]);
	});

	it('makes an unknown NIF and an unknown slug each a clear error item, the other items going on', async () => {
		const outcome = await runLibreBor(sim(), companyGet(locator('nif', '={{ $json.nif }}')), {
			items: [{ nif: 'B65410011' }, { nif: 'B64717838' }],
			continueOnFail: true,
		});
		expect(outcome.items[0].error?.message).toBe(
			'LibreBOR has no company with NIF B65410011 (404)',
		);
		expect(outcome.items[0].error?.description).toMatch(/Search the company by name/);
		expect(outcome.items[0].pairedItem).toEqual({ item: 0 });
		expect(outcome.items[1].json).toMatchObject({ nif: 'B64717838' });
		const bySlug = await runLibreBor(sim(), companyGet(locator('slug', '={{ $json.slug }}')), {
			items: [{ slug: 'no-such-company' }, { slug: 'altamira-infraestructuras' }],
			continueOnFail: true,
		});
		expect(bySlug.items[0].error?.message).toBe(
			'LibreBOR has no company with the slug "no-such-company" (404)',
		);
		expect(bySlug.items[0].error?.description).toContain('Company not found. (NOT_FOUND)');
		expect(bySlug.items[1].json).toMatchObject({ slug: 'altamira-infraestructuras' });
		expect(pairedItemsOf(bySlug)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('gets the incorporation by slug, or by NIF through the company look-up', async () => {
		const bySlug = await runLibreBor(
			sim(),
			companyGet(locator('slug', 'brisas-del-llobregat'), 'getIncorporation'),
		);
		expect(jsonOf(bySlug)).toEqual([
			{
				date: expect.any(String),
				incorporation_registry_data: expect.any(String),
				slug: 'brisas-del-llobregat',
				name: 'BRISAS DEL LLOBREGAT SL',
				nif: 'B64717838',
			},
		]);
		const byNif = await runLibreBor(
			sim(),
			companyGet(locator('nif', 'B64717838'), 'getIncorporation'),
		);
		expect(jsonOf(byNif)).toEqual(jsonOf(bySlug));
	});

	it('says which incorporation is missing, and when LibreBOR gives a company found by NIF no slug', async () => {
		const missing = await runLibreBor(
			sim(),
			companyGet(locator('slug', 'no-such-company'), 'getIncorporation'),
		);
		expect(missing.error?.message).toBe(
			'LibreBOR has no incorporation record for the company "no-such-company" (404)',
		);
		sim().clearLog();
		const nif = 'B64717838';
		for (const slug of [{ slug: '' }, {}]) {
			const body = JSON.stringify({ company: { nif, name: 'BRISAS DEL LLOBREGAT SL', ...slug } });
			sim().injectFault({ method: 'GET', path: `/v2/company/by-nif/${nif}/`, status: 200, body });
		}
		const noSlug = await runLibreBor(
			sim(),
			companyGet(locator('nif', '={{ $json.nif }}'), 'getIncorporation'),
			{ items: [{ nif }, { nif }], continueOnFail: true },
		);
		expect(noSlug.items.map((item) => item.error?.message)).toEqual([
			`LibreBOR gave no slug for the company ${nif}`,
			`LibreBOR gave no slug for the company ${nif}`,
		]);
		expect(noSlug.items[0].error?.description).toMatch(/^Pick the company from the list/);
		expect(pairedItemsOf(noSlug)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(sim().requestsTo('GET', '/v2/company/by-slug/')).toEqual([]);
	});
});

describe('Person and NIF', () => {
	it('searches people by name, accents ignored', async () => {
		const result = await runLibreBor(sim(), {
			resource: 'person',
			operation: 'search',
			query: 'ibanez',
		});
		expect(jsonOf(result)).toEqual([
			{
				slug: 'ibanez-ortega-jordi',
				name: 'IBAÑEZ ORTEGA JORDI',
				province: 'Barcelona',
				last_update: '2024-11-02',
			},
		]);
	});

	it('says how to narrow a person search LibreBOR cut at 200 results, without a Province it does not have', async () => {
		for (let index = 1; index <= 230; index++)
			sim().state.registry.addPerson({
				slug: `perez-${index}`,
				name: `PEREZ ${index}`,
				province: 'Madrid',
				last_update: '2024-01-01',
				posts: [],
			});
		const result = await runLibreBor(sim(), {
			resource: 'person',
			operation: 'search',
			query: 'perez',
			returnAll: true,
		});
		expect(result.items).toHaveLength(200);
		expect(hintsOf(result)).toEqual([
			'LibreBOR lists only the first 200 of the 230 results of a search. Add words of the name to narrow it.',
		]);
	});

	it("gets a person by slug from an expression, with each post's company status on request", async () => {
		const person = { resource: 'person', operation: 'get' };
		const plain = await runLibreBor(
			sim(),
			{
				...person,
				person: locator('slug', '={{ $json.slug_person }}'),
			},
			{ items: [{ slug_person: 'garcia-lopez-maria' }] },
		);
		expect(jsonOf(plain)[0].active_positions).toEqual([
			expect.not.objectContaining({ company_status: expect.anything() }),
			expect.anything(),
		]);
		sim().clearLog();
		const withStatus = await runLibreBor(sim(), {
			...person,
			person: locator('slug', 'garcia-lopez-maria'),
			options: { companyStatus: true },
		});
		const record = jsonOf(withStatus)[0] as Record<string, Array<Record<string, unknown>>>;
		const statusOf = (slug: string) => sim().state.registry.companyBySlug(slug)?.status;
		for (const position of [...record.active_positions, ...record.inactive_positions])
			expect(position.company_status).toBe(statusOf(position.slug_company as string));
		expect(record.active_positions.map((position) => position.company_status)).toEqual([
			statusOf('brisas-del-llobregat'),
			'dissolved',
		]);
		// Two distinct companies among three posts: one look-up each.
		expect(sim().requestsTo('GET', '/v2/company/by-slug/')).toHaveLength(2);
	});

	it('gives a post LibreBOR finds no company for, or that names none, a null company status, and keeps what is no post', async () => {
		const post = (slug_company: string | undefined, name_company: string) => ({
			slug_company,
			name_company,
			role: 'Administrador',
		});
		const [brisas, noSlug, gone] = [
			post('brisas-del-llobregat', 'BRISAS DEL LLOBREGAT SL'),
			post(undefined, 'SIN SLUG SL'),
			post('disuelta-hace-tiempo', 'DISUELTA HACE TIEMPO SL'),
		];
		// A person whose answer holds active posts only, among them what is no post.
		const person = {
			slug: 'ruiz-sanz-ana',
			name: 'RUIZ SANZ ANA',
			active_positions: [brisas, null, 'ADMINISTRADOR', noSlug, gone],
		};
		const body = JSON.stringify(person);
		sim().injectFault({ method: 'GET', path: '/v2/person/by-slug/*', status: 200, body });
		const result = await runLibreBor(sim(), {
			resource: 'person',
			operation: 'get',
			person: locator('slug', 'ruiz-sanz-ana'),
			options: { companyStatus: true },
		});
		const status = sim().state.registry.companyBySlug('brisas-del-llobregat')?.status;
		expect(jsonOf(result)).toEqual([
			{
				...person,
				active_positions: [
					{ ...brisas, company_status: status },
					null,
					'ADMINISTRADOR',
					{ ...noSlug, company_status: null },
					{ ...gone, company_status: null },
				],
			},
		]);
		expect(sim().requestsTo('GET', '/v2/company/by-slug/')).toHaveLength(2);
	});

	it('makes an unknown person slug a clear error', async () => {
		const result = await runLibreBor(sim(), {
			resource: 'person',
			operation: 'get',
			person: locator('slug', 'nadie-nadie'),
		});
		expect(result.error?.message).toBe('LibreBOR has no person with the slug "nadie-nadie" (404)');
	});

	it.each([
		{ resource: 'company', field: 'company', slug: 'brisas del llobregat' },
		{ resource: 'person', field: 'person', slug: 'garcía lópez maría' },
	])(
		'refuses a $resource slug that cannot be one, saying what one is',
		async ({ resource, field, slug }) => {
			const result = await runLibreBor(sim(), {
				resource,
				operation: 'get',
				[field]: locator('slug', slug),
			});
			expect(result.error?.message).toBe(`The ${resource} slug "${slug}" is not valid`);
			expect((result.error as { description?: string }).description).toMatch(
				new RegExp(`^A ${resource} slug is the last part of`),
			);
			expect(sim().requests).toEqual([]);
		},
	);

	it('says a NIF of spaces is empty, and asks nothing', async () => {
		const result = await runLibreBor(sim(), { resource: 'nif', operation: 'getInfo', nif: '   ' });
		expect(result.error?.message).toBe('The NIF is empty');
		expect(sim().requests).toEqual([]);
	});

	it("gets a NIF's information, LibreBOR's word on an invalid one, and refuses what is no NIF", async () => {
		const unknown = 'A58818501';
		sim().injectFault({
			method: 'GET',
			path: `/v2/utils/nif-info/${unknown}/`,
			status: 404,
			body: JSON.stringify({ error: { message: 'Not found.', code: 'NOT_FOUND' } }),
		});
		const result = await runLibreBor(
			sim(),
			{ resource: 'nif', operation: 'getInfo', nif: '={{ $json.nif }}' },
			{
				items: [
					{ nif: 'ES B-64717838' },
					{ nif: 'B64717839' },
					{ nif: 12345678 },
					{ nif: null },
					{ nif: '123456789012345678901' },
					{ nif: unknown },
				],
				continueOnFail: true,
			},
		);
		expect(jsonOf(result).slice(0, 3)).toEqual([
			{
				nif: 'B64717838',
				valid: true,
				nif_data: expect.objectContaining({
					type: 'COMPANY',
					company_type: 'Sociedad de Responsabilidad Limitada',
				}),
			},
			{ nif: 'B64717839', valid: false, nif_data: null },
			{ nif: '12345678', valid: false, nif_data: null },
		]);
		expect(result.items.slice(3).map((item) => item.error?.message)).toEqual([
			'The NIF is empty',
			'The NIF "123456789012345678901" cannot be checked',
			`LibreBOR has no information on the NIF ${unknown} (404)`,
		]);
		expect(result.items[3].error?.description).toMatch(
			/^Enter the Spanish tax identifier to check/,
		);
		expect(result.items[4].error?.description).toMatch(/^Enter a Spanish tax identifier/);
		expect(pairedItemsOf(result)).toEqual([0, 1, 2, 3, 4, 5].map((item) => ({ item })));
		expect(sim().requestsTo('GET', '/v2/utils/nif-info/')).toHaveLength(4);
	});
});

describe('Picking a company or a person by name in the editor', () => {
	const search = async (method: string, filter?: string, paginationToken?: string) =>
		await runListSearch({
			nodeType: new LibreBor(),
			method,
			filter,
			paginationToken,
			credentials: credentialsFor(sim()),
			parameters: { resource: 'company', operation: 'get' },
		});

	it('lists the companies LibreBOR finds by name, slug as value, a page at a time', async () => {
		sim().state.registry.addMany(12, 'TRANSPORTES RAPIDOS', {
			province: 'Sevilla',
			status: 'active',
		});
		const first = await search('searchRegistryCompanies', 'transportes');
		expect(first.results[0]).toEqual({
			name: 'TRANSPORTES RAPIDOS 0001 SL (Sevilla, active)',
			value: 'transportes-rapidos-0001',
		});
		expect(first.results).toHaveLength(10);
		const second = await search('searchRegistryCompanies', 'transportes', first.paginationToken);
		expect(second.results.map((result) => result.value)).toEqual([
			'transportes-rapidos-0011',
			'transportes-rapidos-0012',
		]);
		expect(second.paginationToken).toBeUndefined();
	});

	it('fails at once, saying how long LibreBOR asked to wait, rather than keep the editor waiting out a throttle', async () => {
		sim().injectFault({ method: 'GET', path: SEARCH, status: 429, retryAfter: 20 });
		const startedAt = Date.now();
		const error = await search('searchRegistryCompanies', 'brisas').catch(
			(failed: unknown) => failed,
		);
		expect(Date.now() - startedAt).toBeLessThan(5_000);
		expect((error as Error).message).toBe(
			'LibreBOR is rate limiting the account (429): try again in 20 s',
		);
	});

	it('asks for no page past the 200 results LibreBOR lists, even when it offers more', async () => {
		sim().state.registry.addMany(260, 'GRUPO ENORME');
		sim().state.registry.searchCap = Infinity;
		sim().state.registry.pageSize = 50;
		const tokens: Array<string | undefined> = [];
		let token: string | undefined;
		do {
			token = (await search('searchRegistryCompanies', 'enorme', token)).paginationToken;
			tokens.push(token);
		} while (token !== undefined);
		expect(tokens).toEqual(['2', '3', '4', undefined]);
	});

	it('asks nothing until a name is typed', async () => {
		for (const filter of ['', '  ', undefined])
			expect(await search('searchRegistryCompanies', filter)).toEqual({ results: [] });
		expect(sim().requests).toEqual([]);
	});

	it('leaves out a result without a slug, and a detail LibreBOR leaves empty', async () => {
		const companies = [
			{ name: 'SIN SLUG SL', province: 'Madrid', status: 'active' },
			{ name: 'SIN PROVINCIA SL', slug: 'sin-provincia', province: null, status: 'active' },
		];
		const body = JSON.stringify({ companies, count_results: 2, total_results: 2, next_page: null });
		sim().injectFault({ method: 'GET', path: SEARCH, status: 200, body });
		expect(await search('searchRegistryCompanies', 'sin')).toEqual({
			results: [{ name: 'SIN PROVINCIA SL (active)', value: 'sin-provincia' }],
		});
	});

	it('lists people by name', async () => {
		const { results } = await search('searchRegistryPeople', 'garcia');
		expect(results).toEqual([
			{ name: 'GARCIA LOPEZ MARIA (Madrid)', value: 'garcia-lopez-maria' },
			{ name: 'GARCÍA NAVARRO JOSÉ (Sevilla)', value: 'garcia-navarro-jose' },
		]);
	});
});

describe('Watch List > Get Many with Company Details', () => {
	const getMany = { resource: 'watchlist', operation: 'getMany', returnAll: true };

	it("adds each watched company's status and province from the registry, one look-up each, side by side", async () => {
		sim().state.follow('B64717838');
		sim().state.follow('B65410011');
		// Known by its NIF only; and one the registry does not find.
		(sim().state.follow('A86212420') as { slug: string | null }).slug = null;
		sim().state.follow('J99216582');
		sim().injectFault({
			method: 'GET',
			path: '/v2/company/by-slug/taller-cooperativo-del-ebro/',
			status: 404,
			body: JSON.stringify({ error: { message: 'Company not found.', code: 'NOT_FOUND' } }),
		});
		const result = await withLatency(
			sim(),
			100,
			async () => await runLibreBor(sim(), { ...getMany, options: { companyDetails: true } }),
		);
		const registry = sim().state.registry;
		const registryOf = (entity: { slug: string | null; nif: string }) =>
			entity.slug === null
				? registry.companyByNif(entity.nif)
				: entity.slug === 'taller-cooperativo-del-ebro'
					? undefined
					: registry.companyBySlug(entity.slug);
		expect(jsonOf(result)).toEqual(
			sim().state.watchlist.map((entity) => ({
				...entity,
				status: registryOf(entity)?.status ?? null,
				province: registryOf(entity)?.province ?? null,
			})),
		);
		expect(jsonOf(result)[0]).toMatchObject({ nif: 'B64717838', status: expect.any(String) });
		expect(jsonOf(result)[2]).toMatchObject({ nif: 'A86212420', status: expect.any(String) });
		expect(jsonOf(result)[3]).toMatchObject({ status: null, province: null });
		expect(sim().requestsTo('GET', '/v2/company/by-slug/')).toHaveLength(3);
		expect(sim().requestsTo('GET', '/v2/company/by-nif/A86212420/')).toHaveLength(1);
		expect(sim().traffic.maxInFlight).toBeGreaterThan(1);
	});

	it.each([
		['refuses (403)', { status: 403 }, /403/],
		[
			'answers 404 with a web page, not its JSON',
			{ status: 404, body: '<!doctype html><title>Not Found</title>', contentType: 'text/html' },
			/^LibreBOR did not find what was asked for \(404\)$/,
		],
	])(
		'fails on a look-up LibreBOR %s, rather than leave the details empty',
		async (_case, fault, message) => {
			sim().state.follow('B64717838');
			sim().injectFault({ method: 'GET', path: '/v2/company/by-slug/*', ...fault });
			const result = await runLibreBor(sim(), { ...getMany, options: { companyDetails: true } });
			expect(result.error?.message).toMatch(message);
			expect(result.items).toEqual([]);
		},
	);

	it('adds nothing, and looks nothing up, without the option; before version 3, lists for one input item at a time', async () => {
		sim().state.follow('B64717838');
		const result = await runLibreBor(sim(), getMany);
		expect(jsonOf(result)).toEqual(sim().state.watchlist);
		expect(sim().requestsTo('GET', '/v2/company/')).toEqual([]);
		const version2 = await withLatency(
			sim(),
			100,
			async () =>
				await runLibreBor(sim(), getMany, { typeVersion: 2, items: [{ n: 1 }, { n: 2 }] }),
		);
		expect(jsonOf(version2)).toEqual([...sim().state.watchlist, ...sim().state.watchlist]);
		expect(sim().traffic.maxInFlight).toBe(1);
	});
});
