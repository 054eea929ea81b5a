import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { runListSearch } from '../../tools/engine/index.mts';
import {
	credentialsFor,
	jsonOf,
	pairedItemsOf,
	runLibreBor,
	useSimulator,
} from '../support/libreBor.mts';

const sim = useSimulator();
const locator = (mode: string, value: string) => ({ __rl: true as const, mode, value });
const SEARCH = '/v2/company/search/';
const hintsOf = (result: Awaited<ReturnType<typeof runLibreBor>>) =>
	(result.runData[result.nodeName]?.[0]?.hints ?? []).map((hint) => hint.message);
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
	it('with Return All, reads every page, whether next_page is a number or a URL', async () => {
		sim().state.registry.addMany(25, 'TRANSPORTES RAPIDOS');
		for (const form of ['number', 'url'] as const) {
			sim().clearLog();
			sim().state.registry.nextPageForm = form;
			const result = await runLibreBor(sim(), companySearch('rapidos', { returnAll: true }));
			expect(jsonOf(result).map((company) => company.slug)).toEqual(
				Array.from(
					{ length: 25 },
					(_, index) => `transportes-rapidos-${String(index + 1).padStart(4, '0')}`,
				),
			);
			expect(pagesAsked()).toEqual(['1', '2', '3']);
			expect(sim().requestsTo('GET', SEARCH)[0].query.query).toBe('rapidos');
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

	it('stops asking at 200 results, even when LibreBOR offers more pages, and says so', async () => {
		sim().state.registry.addMany(260, 'GRUPO ENORME');
		sim().state.registry.searchCap = Infinity;
		sim().state.registry.pageSize = 50;
		const result = await runLibreBor(sim(), companySearch('enorme', { returnAll: true }));
		expect(result.items).toHaveLength(200);
		expect(pagesAsked()).toEqual(['1', '2', '3', '4']);
		expect(hintsOf(result)).toEqual([
			expect.stringContaining('only the first 200 of the 260 results'),
		]);
	});

	it('ends a search whose next_page does not move forward, and asks the API host only, whatever URL next_page names', async () => {
		const page = (nextPage: string) =>
			JSON.stringify({
				companies: [{ name: 'UNA SL', slug: `una-${nextPage.length}` }],
				count_results: 1,
				total_results: 40,
				next_page: nextPage,
			});
		sim().injectFault({ method: 'GET', path: SEARCH, status: 200, body: page('1') });
		const stuck = await runLibreBor(sim(), companySearch('una', { returnAll: true }));
		expect(stuck.items).toHaveLength(1);
		expect(pagesAsked()).toEqual(['1']);

		sim().clearLog();
		sim().state.registry.addMany(12, 'TRANSPORTES RAPIDOS');
		const elsewhere = 'https://elsewhere.example/v2/company/search/?query=rapidos&page=2';
		sim().injectFault({ method: 'GET', path: SEARCH, status: 200, body: page(elsewhere) });
		const moved = await runLibreBor(sim(), companySearch('rapidos', { returnAll: true }));
		expect(pagesAsked()).toEqual(['1', '2']);
		expect(jsonOf(moved).map((company) => company.slug)).toEqual([
			expect.stringMatching(/^una-/),
			'transportes-rapidos-0011',
			'transportes-rapidos-0012',
		]);
	});

	it('returns up to Limit, asking only for the pages it needs', async () => {
		sim().state.registry.addMany(25, 'TRANSPORTES RAPIDOS');
		const result = await runLibreBor(sim(), companySearch('rapidos', { limit: 12 }));
		expect(result.items).toHaveLength(12);
		expect(pagesAsked()).toEqual(['1', '2']);
	});

	it('sends the province and finds names with accents from words without them', async () => {
		const result = await runLibreBor(
			sim(),
			companySearch('panaderia senorio', { options: { province: 'Ávila' } }),
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

	it('searches once per input item, each output paired with its item', async () => {
		const result = await runLibreBor(sim(), companySearch('={{ $json.name }}'), {
			items: [{ name: 'brisas' }, { name: 'altamira' }],
		});
		expect(jsonOf(result).map((company) => company.slug)).toEqual([
			'brisas-del-llobregat',
			'altamira-infraestructuras',
		]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }]);
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
		const bySlug = await runLibreBor(sim(), companyGet(locator('list', 'brisas-del-llobregat')));
		expect(jsonOf(bySlug)).toEqual(jsonOf(byNif));
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

	it('makes an unknown person slug a clear error', async () => {
		const result = await runLibreBor(sim(), {
			resource: 'person',
			operation: 'get',
			person: locator('slug', 'nadie-nadie'),
		});
		expect(result.error?.message).toBe('LibreBOR has no person with the slug "nadie-nadie" (404)');
	});

	it("gets a NIF's information, and LibreBOR's word on an invalid one", async () => {
		const result = await runLibreBor(
			sim(),
			{ resource: 'nif', operation: 'getInfo', nif: '={{ $json.nif }}' },
			{ items: [{ nif: 'ES B-64717838' }, { nif: 'B64717839' }] },
		);
		expect(jsonOf(result)).toEqual([
			{
				nif: 'B64717838',
				valid: true,
				nif_data: expect.objectContaining({
					type: 'COMPANY',
					company_type: 'Sociedad de Responsabilidad Limitada',
				}),
			},
			{ nif: 'B64717839', valid: false, nif_data: null },
		]);
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

	it('asks nothing until a name is typed', async () => {
		expect(await search('searchRegistryCompanies', '')).toEqual({ results: [] });
		expect(sim().requests).toEqual([]);
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
	it("adds each watched company's status and province from the registry, one look-up each", async () => {
		sim().state.follow('B64717838');
		sim().state.follow('B65410011');
		const result = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'getMany',
			returnAll: true,
			options: { companyDetails: true },
		});
		const registryOf = (slug: string) => sim().state.registry.companyBySlug(slug);
		expect(jsonOf(result)).toEqual(
			sim().state.watchlist.map((entity) => ({
				...entity,
				status: registryOf(entity.slug)?.status,
				province: registryOf(entity.slug)?.province,
			})),
		);
		expect(jsonOf(result)[0]).toMatchObject({ nif: 'B64717838', status: expect.any(String) });
		expect(sim().requestsTo('GET', '/v2/company/by-slug/')).toHaveLength(2);
	});

	it('adds nothing, and looks nothing up, without the option', async () => {
		sim().state.follow('B64717838');
		const result = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'getMany',
			returnAll: true,
		});
		expect(jsonOf(result)).toEqual(sim().state.watchlist);
		expect(sim().requestsTo('GET', '/v2/company/')).toEqual([]);
	});
});
