import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startSimulator, type Simulator } from '../../tools/simulator/index.mts';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

async function get(path: string, auth = true) {
	const { username, password } = sim.credentials;
	const headers: Record<string, string> = auth
		? { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` }
		: {};
	const url = path.startsWith('https://') ? path : `${sim.baseUrl}${path}`;
	const response = await request(url, { headers });
	return { status: response.statusCode, json: (await response.body.json()) as any };
}

describe('Simulator: company search', () => {
	it('pages through the results with next_page as a page number, null on the last page', async () => {
		sim.state.registry.addMany(25, 'TRANSPORTES RAPIDOS');
		const first = await get('/company/search/?query=transportes%20rapidos');
		expect(first.status).toBe(200);
		expect(first.json).toMatchObject({ count_results: 10, total_results: 25, next_page: '2' });
		expect(first.json.companies[0]).toEqual({
			name: 'TRANSPORTES RAPIDOS 0001 SL',
			slug: 'transportes-rapidos-0001',
			province: expect.any(String),
			status: expect.any(String),
			last_update: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
		});
		const last = await get('/company/search/?query=transportes%20rapidos&page=3');
		expect(last.json).toMatchObject({ count_results: 5, next_page: null });
	});

	it('gives next_page as a whole URL, and ends with it left out or empty, when set so', async () => {
		sim.state.registry.addMany(12, 'TRANSPORTES RAPIDOS');
		sim.state.registry.nextPageForm = 'url';
		sim.state.registry.lastPageForm = 'absent';
		const first = await get('/company/search/?query=rapidos');
		const next = new URL(first.json.next_page);
		expect(next.searchParams.get('page')).toBe('2');
		const second = await get(first.json.next_page);
		expect(second.json.count_results).toBe(2);
		expect('next_page' in second.json).toBe(false);
		sim.state.registry.lastPageForm = 'empty';
		expect((await get(first.json.next_page)).json.next_page).toBe('');
	});

	it('lists 200 results at most, counting them all, and refuses a page past them', async () => {
		sim.state.registry.addMany(230, 'GRUPO ENORME');
		sim.state.registry.pageSize = 50;
		const page4 = await get('/company/search/?query=enorme&page=4');
		expect(page4.json).toMatchObject({ count_results: 50, total_results: 230, next_page: null });
		const page5 = await get('/company/search/?query=enorme&page=5');
		expect(page5).toEqual({
			status: 404,
			json: { error: { message: 'Invalid page: 5.', code: 'NOT_FOUND' } },
		});
	});

	it('finds names with accents from words without them, and filters by province name', async () => {
		const found = await get('/company/search/?query=peniscola');
		expect(found.json.companies.map((company: { name: string }) => company.name)).toEqual([
			'CONSTRUCCIONES PEÑÍSCOLA SA',
		]);
		const accented = await get(`/company/search/?query=${encodeURIComponent('señorío ávila')}`);
		expect(accented.json.companies).toHaveLength(1);
		const inAvila = await get('/company/search/?query=panaderia&province=avila');
		expect(inAvila.json.total_results).toBe(1);
		const elsewhere = await get('/company/search/?query=panaderia&province=Madrid');
		expect(elsewhere.json).toMatchObject({ companies: [], total_results: 0, next_page: null });
	});

	it('refuses a search without words, in the error body of the definition', async () => {
		expect(await get('/company/search/')).toEqual({
			status: 400,
			json: { error: { message: 'The query parameter is required.', code: 'MISSING_PARAMETER' } },
		});
	});
});

describe('Simulator: company, person and NIF look-ups', () => {
	it('gets a company by NIF and by slug, its incorporation, and a company without a NIF', async () => {
		const byNif = await get('/company/by-nif/B64717838/');
		expect(byNif.json.company).toMatchObject({
			nif: 'B64717838',
			slug: 'brisas-del-llobregat',
			name: 'BRISAS DEL LLOBREGAT SL',
			status: expect.any(String),
		});
		const bySlug = await get('/company/by-slug/brisas-del-llobregat/');
		expect(bySlug.json).toEqual(byNif.json);
		const incorporation = await get('/company/by-slug/brisas-del-llobregat/incorporation/');
		expect(incorporation.json).toMatchObject({ slug: 'brisas-del-llobregat', nif: 'B64717838' });
		const noNif = await get('/company/by-slug/comercial-boletin-antiguo/');
		expect(noNif.json.company).toMatchObject({ name: 'COMERCIAL BOLETÍN ANTIGUO SL', nif: null });
	});

	it('answers 400 INVALID_NIF, 404 NOT_FOUND, and 401 without credentials', async () => {
		expect(await get('/company/by-nif/B64717839/')).toEqual({
			status: 400,
			json: { error: { message: 'Invalid NIF: B64717839.', code: 'INVALID_NIF' } },
		});
		expect((await get('/company/by-nif/B12345674/')).status).toBe(200);
		expect((await get('/company/by-nif/B65410011/')).json).toEqual({
			error: { message: 'Company not found.', code: 'NOT_FOUND' },
		});
		expect((await get('/company/by-slug/no-such-company/')).status).toBe(404);
		expect((await get('/person/by-slug/no-such-person/')).status).toBe(404);
		expect((await get('/company/by-nif/B64717838/', false)).status).toBe(401);
	});

	it('searches people by name, with the province as an INE code, and gets one with its posts', async () => {
		const found = await get('/person/search/?query=garcia');
		expect(found.json.people.map((person: { slug: string }) => person.slug)).toEqual([
			'garcia-lopez-maria',
			'garcia-navarro-jose',
		]);
		const inSevilla = await get('/person/search/?query=garcia&province=41');
		expect(inSevilla.json.people).toHaveLength(1);
		expect((await get('/person/search/?query=garcia&province=99')).status).toBe(400);
		const person = await get('/person/by-slug/garcia-lopez-maria/');
		expect(person.json).toMatchObject({ total_active_positions: 2, total_inactive_positions: 1 });
		expect(person.json.active_positions[0]).toMatchObject({
			slug_company: 'brisas-del-llobregat',
			role: 'Adm. Unico',
		});
	});

	it('tells a company NIF from a person one, and an invalid NIF', async () => {
		expect((await get('/utils/nif-info/B64717838/')).json).toEqual({
			nif: 'B64717838',
			valid: true,
			nif_data: {
				company_type: 'Sociedad de Responsabilidad Limitada',
				register_province: expect.any(String),
				type: 'COMPANY',
			},
		});
		expect((await get('/utils/nif-info/12345678Z/')).json.nif_data.type).toBe('PERSON');
		expect((await get('/utils/nif-info/B64717839/')).json).toMatchObject({ valid: false });
	});

	it('logs the look-ups and lets faults strike them like any other request', async () => {
		sim.injectFault({ method: 'GET', path: '/v2/company/search/', status: 500 });
		expect((await get('/company/search/?query=brisas')).status).toBe(500);
		expect((await get('/company/search/?query=brisas')).status).toBe(200);
		expect(sim.requestsTo('GET', '/v2/company/search/')).toHaveLength(2);
	});
});

describe('Simulator: companies seeded through /__sim/', () => {
	async function control(method: 'POST' | 'DELETE', path: string, json?: unknown) {
		const origin = sim.baseUrl.replace(/\/v2$/, '');
		const response = await request(`${origin}/__sim/${path}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: json === undefined ? undefined : JSON.stringify(json),
		});
		return { status: response.statusCode, json: (await response.body.json()) as any };
	}

	it('lists companies in the registry and sets the watch list, both findable, without API traffic', async () => {
		expect((await get('/company/by-nif/B65410011/')).status).toBe(404);
		expect(await control('POST', 'registry', { nifs: ['B65410011'] })).toEqual({
			status: 201,
			json: { added: 1 },
		});
		const listed = await get('/company/by-nif/B65410011/');
		expect(listed.json.company).toMatchObject({ status: expect.any(String) });
		expect((await get(`/company/by-slug/${listed.json.company.slug}/`)).status).toBe(200);

		await control('DELETE', 'watchlist');
		await control('POST', 'watchlist', { nifs: ['B65410011'] });
		expect(sim.state.watchlist.map((entity) => entity.slug)).toEqual([listed.json.company.slug]);
		expect(sim.requests).toHaveLength(3);
		expect((await control('POST', 'registry', { nifs: ['B65410012'] })).status).toBe(400);
	});
});
