import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, FormData, request } from 'undici';

import { explainInvalidNif, normalizeNif } from '../../nodes/LibreBor/identifiers/nif.ts';
import {
	isValidNif,
	makeCif,
	startSimulator,
	type Simulator,
} from '../../tools/simulator/index.mts';

const WATCH_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface CallOptions {
	form?: Record<string, string>;
	auth?: false | { username: string; password: string };
	headers?: Record<string, string>;
}

interface Reply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	json: () => any;
}

let sim: Simulator;

const basicAuth = ({ username, password } = sim.credentials) =>
	`Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

async function api(
	method: 'GET' | 'POST' | 'DELETE',
	url: string,
	options: CallOptions = {},
): Promise<Reply> {
	const headers: Record<string, string> = { ...options.headers };
	const auth = options.auth === undefined ? sim.credentials : options.auth;
	if (auth) headers.authorization = basicAuth(auth);
	let body: string | undefined;
	if (options.form) {
		headers['content-type'] = 'application/x-www-form-urlencoded';
		body = new URLSearchParams(options.form).toString();
	}
	const absolute = url.startsWith('https://') ? url : `${sim.baseUrl}${url}`;
	const response = await request(absolute, { method, headers, body });
	const text = await response.body.text();
	return {
		status: response.statusCode,
		headers: response.headers,
		text,
		json: () => JSON.parse(text),
	};
}

const orderAccounts = async (nif: string, year: string) =>
	await api('POST', '/documents/order/', { form: { nif, type: 'accounts', year } });

beforeAll(async () => {
	sim = await startSimulator();
});

afterEach(() => {
	sim.reset();
});

afterAll(async () => {
	await sim.close();
});

describe('origins and authentication', () => {
	it('serves the API and the files on two https origins on localhost', () => {
		expect(sim.baseUrl).toMatch(/^https:\/\/localhost:\d+\/v2$/);
		expect(sim.downloadOrigin).toMatch(/^https:\/\/localhost:\d+$/);
		expect(new URL(sim.baseUrl).port).not.toBe(new URL(sim.downloadOrigin).port);
		expect(sim.credentials).toEqual({ username: 'api-user', password: 's3cret-Pa55word!' });
	});

	it('refuses missing or wrong credentials with a Basic challenge', async () => {
		for (const auth of [false as const, { username: 'api-user', password: 'wrong' }]) {
			const reply = await api('GET', '/alerts/', { auth });
			expect(reply.status).toBe(401);
			expect(reply.headers['www-authenticate']).toBe('Basic realm="LibreBOR"');
			expect(reply.json()).toEqual({ detail: 'Invalid username/password.' });
		}
	});

	it('answers unknown routes with 404 and wrong methods with 405', async () => {
		const unknown = await api('GET', '/companies/search/');
		expect(unknown.status).toBe(404);
		expect(unknown.headers['content-type']).toContain('text/html');
		expect((await api('GET', '/alerts')).status).toBe(404);
		expect((await api('GET', '/alerts/follow/')).status).toBe(405);

		sim.state.routeNotFoundStyle = 'json';
		expect((await api('GET', '/nothing/here/')).json()).toEqual({ detail: 'Not found.' });
	});
});

describe('watch list', () => {
	it('follows from form fields or the query string, once per company', async () => {
		const follow = await api('POST', '/alerts/follow/', {
			form: { nif: 'B64717838', type: 'company' },
		});
		expect(follow.status).toBe(200);
		expect(follow.json()).toEqual({ result: 'success' });
		expect((await api('POST', '/alerts/follow/?nif=B64717838&type=company')).json()).toEqual({
			result: 'success',
		});
		expect((await api('POST', '/alerts/follow/?nif=A86212420&type=company')).status).toBe(200);

		const following = (await api('GET', '/alerts/following/')).json();
		expect(following.entities).toHaveLength(2);
		expect(following.entities[0]).toEqual({
			type: 'company',
			name: 'BRISAS DEL LLOBREGAT SL',
			slug: 'brisas-del-llobregat',
			nif: 'B64717838',
			added_at: expect.stringMatching(WATCH_TIMESTAMP),
		});
		expect(sim.requestsTo('POST', '/v2/alerts/follow/')[0].form).toEqual({
			nif: 'B64717838',
			type: 'company',
		});
	});

	it('reads multipart and JSON bodies too', async () => {
		const multipart = new FormData();
		multipart.set('nif', 'A86212420');
		multipart.set('type', 'company');
		expect(
			(
				await request(`${sim.baseUrl}/alerts/follow/`, {
					method: 'POST',
					body: multipart,
					headers: { authorization: basicAuth() },
				})
			).statusCode,
		).toBe(200);
		const json = await request(`${sim.baseUrl}/alerts/follow/`, {
			method: 'POST',
			body: JSON.stringify({ nif: 'B64717838', type: 'company' }),
			headers: { authorization: basicAuth(), 'content-type': 'application/json' },
		});
		expect(json.statusCode).toBe(200);
		expect(sim.state.watchlist.map((entity) => entity.nif)).toEqual(['A86212420', 'B64717838']);
	});

	it('gives an unknown but valid NIF a generated name and slug', async () => {
		const nif = makeCif('B', '7777777');
		await api('POST', '/alerts/follow/', { form: { nif, type: 'company' } });
		const [entity] = sim.state.watchlist;
		expect(entity.nif).toBe(nif);
		expect(entity.name).toMatch(/ SL$/);
		expect(entity.slug).toMatch(/^[a-z0-9-]+$/);
	});

	it('refuses a missing or invalid NIF and a missing type', async () => {
		const forms: Array<Record<string, string>> = [
			{ type: 'company' },
			{ nif: 'B64717839', type: 'company' },
			{ nif: 'b64717838', type: 'company' },
			{ nif: 'B64717838' },
		];
		for (const form of forms) {
			const reply = await api('POST', '/alerts/follow/', { form });
			expect(reply.status).toBe(400);
			expect(reply.json()).toMatchObject({ result: 'error', message: expect.any(String) });
		}
		expect(sim.state.watchlist).toEqual([]);
	});

	it('unfollows a followed company and answers 404 otherwise', async () => {
		sim.state.follow('J99216582');
		expect(
			(
				await api('POST', '/alerts/unfollow/', { form: { nif: 'J99216582', type: 'company' } })
			).json(),
		).toEqual({ result: 'success' });
		const again = await api('POST', '/alerts/unfollow/', {
			form: { nif: 'J99216582', type: 'company' },
		});
		expect(again.status).toBe(404);
		expect(again.json()).toEqual({ result: 'error', message: 'Entity not followed' });
	});
});

describe('alerts', () => {
	it('lists unread alerts newest first with the documented shape', async () => {
		expect((await api('GET', '/alerts/')).json()).toEqual([]);
		sim.state.follow('A86212420');
		const [older, newer] = sim.state.addAlerts(2);
		const custom = sim.state.addAlert({
			nif: 'B64717838',
			labels: ['Revocaciones', 'Ceses/Dimisiones'],
		});

		const alerts = (await api('GET', '/alerts/')).json();
		expect(alerts.map((alert: { id: string }) => alert.id)).toEqual([
			custom.id,
			newer.id,
			older.id,
		]);
		expect(sim.state.unreadAlerts().map((alert) => alert.id)).toEqual([
			custom.id,
			newer.id,
			older.id,
		]);

		const alert = alerts[2];
		expect(alert).toMatchObject({
			id: expect.stringMatching(UUID),
			created_at: expect.stringMatching(ISO_MS),
			seen_at: expect.stringMatching(ISO_MS),
			entity_name: 'ALTAMIRA INFRAESTRUCTURAS SA',
			entity_slug: 'altamira-infraestructuras',
			entity_type: 'company',
		});
		const [entry] = alert.data;
		expect(entry.label).toBe('Nombramientos');
		expect(entry.borme).toEqual({
			cve: expect.any(String),
			url: expect.stringMatching(/^https:\/\//),
			date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
			province: expect.any(String),
		});
		expect(entry.company).toEqual({
			name: 'ALTAMIRA INFRAESTRUCTURAS SA',
			slug: 'altamira-infraestructuras',
		});
		expect(entry.positions[0]).toMatchObject({
			type: 'Person',
			role: expect.any(String),
			name_person: expect.any(String),
			slug_person: expect.any(String),
		});
		expect(entry.total_positions).toBe(entry.positions.length);
		expect(entry.announcement).toMatchObject({
			year: expect.any(Number),
			number: expect.any(Number),
			branch: '',
			office: '',
			registry_data: expect.any(String),
		});
		expect(alerts[0].data.map((e: { label: string }) => e.label)).toEqual([
			'Revocaciones',
			'Ceses/Dimisiones',
		]);
	});

	it('marks one alert, then all alerts, as read', async () => {
		const [first, second, third] = sim.state.addAlerts(3);
		expect((await api('GET', `/alerts/mark_as_read/${second.id}/`)).json()).toEqual({
			result: 'success',
		});
		expect((await api('GET', '/alerts/')).json().map((a: { id: string }) => a.id)).toEqual([
			third.id,
			first.id,
		]);

		const unknown = await api('GET', '/alerts/mark_as_read/00000000-0000-4000-8000-000000000000/');
		expect(unknown.status).toBe(404);
		expect(unknown.json()).toEqual({ result: 'error', message: 'Alert not found' });

		expect((await api('GET', '/alerts/mark_as_read/all/')).json()).toEqual({ result: 'success' });
		expect((await api('GET', '/alerts/')).json()).toEqual([]);
	});

	it('returns only the latest N unread alerts when capped', async () => {
		sim.state.alertListCap = 2;
		const alerts = sim.state.addAlerts(5);
		const listed = (await api('GET', '/alerts/')).json();
		expect(listed.map((a: { id: string }) => a.id)).toEqual([alerts[4].id, alerts[3].id]);
		await api('GET', `/alerts/mark_as_read/${alerts[4].id}/`);
		expect((await api('GET', '/alerts/')).json().map((a: { id: string }) => a.id)).toEqual([
			alerts[3].id,
			alerts[2].id,
		]);
	});

	it('builds alerts from explicit entries and extra fields', () => {
		const alert = sim.state.addAlert({
			entity_name: 'OTRA SL',
			entries: [{ label: 'Disolución' }, { positions: [] }],
			extra: { priority: 'high' },
		});
		expect(alert.entity_name).toBe('OTRA SL');
		expect(alert.data.map((entry) => entry.label)).toEqual(['Disolución', 'Nombramientos']);
		expect(alert.data[1].total_positions).toBe(0);
		expect(alert.priority).toBe('high');
	});

	it('orders back-dated alerts by creation time', async () => {
		const recent = sim.state.addAlert();
		const old = sim.state.addAlert({ created_at: '2020-01-02T03:04:05.678Z' });
		expect(sim.state.unreadAlerts().map((a) => a.id)).toEqual([recent.id, old.id]);
		expect(old.data[0].borme.date).toBe('2020-01-02');
	});

	it('lists 10,000 unread alerts quickly', async () => {
		sim.state.addAlerts(10_000);
		const started = performance.now();
		const listed = (await api('GET', '/alerts/')).json();
		expect(listed).toHaveLength(10_000);
		expect(performance.now() - started).toBeLessThan(1500);
	});
});

describe('documents', () => {
	const order = (
		form: Record<string, string> = {
			nif: 'A86212420',
			type: 'accounts',
			year: '2023',
			send_email: 'true',
		},
		path = '/documents/order/',
	) => api('POST', path, { form });

	it('orders a document, spends the balance and refuses once it is spent', async () => {
		sim.state.balance = 10;
		sim.state.orderPrice = 5;
		const first = await order();
		expect(first.status).toBe(200);
		expect(first.json()).toEqual({ document_id: expect.any(String), result: 'success' });
		expect(
			(await api('POST', '/documents/order/?nif=A86212420&type=accounts&year=2022')).status,
		).toBe(200);
		expect(sim.state.balance).toBe(0);

		const refused = await order();
		expect(refused.status).toBe(402);
		expect(refused.json()).toEqual({
			result: 'error',
			message: 'Insufficient balance. Top up in the user panel, Documents section.',
		});
		expect(sim.state.documents).toHaveLength(2);
		expect(sim.state.ordersReceived).toBe(3);
	});

	it('validates nif, type and year', async () => {
		const forms: Array<Record<string, string>> = [
			{ type: 'accounts', year: '2023' },
			{ nif: 'A86212420', type: 'deeds', year: '2023' },
			{ nif: 'A86212420', year: '2023' },
			{ nif: 'A86212420', type: 'accounts', year: '23' },
			{ nif: 'A86212420', type: 'accounts' },
			{ nif: 'A86212420', type: 'accounts', year: String(new Date().getUTCFullYear() + 1) },
		];
		for (const form of forms) {
			expect((await order(form)).status).toBe(400);
		}
		expect(sim.state.documents).toEqual([]);
		expect(sim.state.balance).toBe(100);
	});

	it('keeps a document processing for the configured time, then links the file', async () => {
		sim.state.documentProcessingMs = 150;
		const id = (await order()).json().document_id;
		const processing = (await api('GET', `/documents/${id}/`)).json();
		expect(processing.document).toMatchObject({
			id,
			status: 'processing',
			download_link: null,
			nif: 'A86212420',
			year: 2023,
			type: 'accounts',
		});

		await new Promise((resolve) => setTimeout(resolve, 170));
		const finished = (await api('GET', `/documents/${id}/`)).json().document;
		expect(finished.status).toBe('completed');
		expect(finished.download_link.startsWith(`${sim.downloadOrigin}/files/`)).toBe(true);

		const missing = await api('GET', '/documents/no-such-document/');
		expect(missing.status).toBe(404);
		expect(missing.json()).toEqual({ result: 'error', message: 'Document not found' });
	});

	it('serves the /order/ alias, and can hide the primary paths', async () => {
		const id = (await order(undefined, '/order/')).json().document_id;
		expect((await api('GET', `/order/${id}/`)).json().document.status).toBe('completed');
		expect((await api('GET', `/documents/${id}/`)).status).toBe(200);

		sim.state.disablePrimaryDocumentPaths = true;
		const hidden = await order();
		expect(hidden.status).toBe(404);
		expect(hidden.text).toContain('<h1>Not Found</h1>');
		expect((await api('GET', `/documents/${id}/`)).status).toBe(404);
		expect((await api('GET', `/order/${id}/`)).status).toBe(200);
		expect(sim.state.ordersReceived).toBe(1);
	});

	it('can finish with another status, with or without a link', async () => {
		sim.state.finishedStatus = 'failed';
		sim.state.downloadLinkOverride = () => null;
		const id = (await order()).json().document_id;
		expect((await api('GET', `/documents/${id}/`)).json().document).toMatchObject({
			status: 'failed',
			download_link: null,
		});

		sim.state.finishedStatus = 'ready';
		sim.state.downloadLinkOverride = (document) =>
			document.download_link!.replace('https://', 'http://');
		expect((await api('GET', `/documents/${id}/`)).json().document).toMatchObject({
			status: 'ready',
			download_link: expect.stringMatching(/^http:\/\/localhost:/),
		});
	});
});

describe('download host', () => {
	async function finishedLink(): Promise<string> {
		const id = (await orderAccounts('B64717838', '2022')).json().document_id;
		return (await api('GET', `/documents/${id}/`)).json().document.download_link;
	}

	it('streams the file without credentials and logs what it got', async () => {
		const link = await finishedLink();
		const response = await request(link, { headers: { authorization: 'Basic c3B5OnNweQ==' } });
		const body = Buffer.from(await response.body.arrayBuffer());
		expect(response.statusCode).toBe(200);
		expect(response.headers['content-type']).toBe('application/pdf');
		expect(response.headers['content-length']).toBe(String(20 * 1024));
		expect(response.headers['content-disposition']).toBe(
			'attachment; filename="cuentas-anuales-B64717838-2022.pdf"',
		);
		expect(body.length).toBe(20 * 1024);
		expect(body.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
		expect(body.subarray(-6).toString('latin1')).toBe('%%EOF\n');

		const [logged] = sim.requestsTo('GET', '/files/', 'download');
		expect(logged.headers.authorization).toBe('Basic c3B5OnNweQ==');
		expect((await request(`${sim.downloadOrigin}/files/unknown`)).statusCode).toBe(404);
	});

	it('streams 50 MB', async () => {
		sim.state.documentSizeBytes = 50 * 1024 * 1024;
		const response = await request(await finishedLink());
		let received = 0;
		for await (const chunk of response.body) received += (chunk as Buffer).length;
		expect(received).toBe(50 * 1024 * 1024);
	});
});

describe('faults', () => {
	it('answers with an injected status, headers and default body, once', async () => {
		const fault = sim.injectFault({
			method: 'GET',
			path: '/v2/alerts/',
			status: 429,
			retryAfter: 2,
			headers: { 'X-Test': 'yes' },
		});
		const throttled = await api('GET', '/alerts/');
		expect(throttled.status).toBe(429);
		expect(throttled.headers['retry-after']).toBe('2');
		expect(throttled.headers['x-test']).toBe('yes');
		expect(throttled.json()).toEqual({ detail: 'Too Many Requests' });
		expect(fault.hits).toBe(1);
		expect(fault.remaining).toBe(0);
		expect((await api('GET', '/alerts/')).status).toBe(200);
	});

	it('serves raw bodies: malformed JSON, an HTML page, an empty body', async () => {
		sim.injectFault({ path: '/v2/alerts/', body: '[{"id": ' });
		sim.injectFault({
			path: '/v2/alerts/',
			status: 502,
			body: '<html>Bad gateway</html>',
			contentType: 'text/html',
		});
		sim.injectFault({ path: '/v2/alerts/', status: 200, body: '' });
		expect(await api('GET', '/alerts/')).toMatchObject({ status: 200, text: '[{"id": ' });
		const html = await api('GET', '/alerts/');
		expect(html).toMatchObject({ status: 502, text: '<html>Bad gateway</html>' });
		expect(html.headers['content-type']).toBe('text/html');
		expect(await api('GET', '/alerts/')).toMatchObject({ status: 200, text: '' });
	});

	it('matches by RegExp and origin, in order, for several requests', async () => {
		const fault = sim.injectFault({ path: /^\/v2\/alerts\/mark_as_read\//, status: 503, times: 2 });
		sim.injectFault({ origin: 'download', status: 500 });
		expect((await api('GET', '/alerts/')).status).toBe(200);
		expect((await api('GET', '/alerts/mark_as_read/all/')).status).toBe(503);
		expect((await api('GET', '/alerts/mark_as_read/all/')).status).toBe(503);
		expect((await api('GET', '/alerts/mark_as_read/all/')).status).toBe(200);
		expect(fault.hits).toBe(2);
		expect((await request(`${sim.downloadOrigin}/files/x`)).statusCode).toBe(500);
	});

	it('repeats forever until cancelled or cleared', async () => {
		const fault = sim.injectFault({ path: '/v2/alerts/following/', status: 500, times: Infinity });
		for (let i = 0; i < 3; i++) expect((await api('GET', '/alerts/following/')).status).toBe(500);
		fault.cancel();
		expect((await api('GET', '/alerts/following/')).status).toBe(200);
		sim.injectFault({ status: 500, times: Infinity });
		sim.clearFaults();
		expect((await api('GET', '/alerts/following/')).status).toBe(200);
	});

	it('delays an answer', async () => {
		sim.injectFault({ path: '/v2/alerts/', delayMs: 120 });
		const started = performance.now();
		expect((await api('GET', '/alerts/')).status).toBe(200);
		expect(performance.now() - started).toBeGreaterThanOrEqual(110);
	});

	it('drops the connection without answering, changing nothing', async () => {
		sim.injectFault({ method: 'POST', path: '/v2/documents/order/', drop: true });
		await expect(orderAccounts('A86212420', '2023')).rejects.toThrow();
		expect(sim.state.documents).toHaveLength(0);
		expect(sim.state.balance).toBe(100);
		expect(sim.state.ordersReceived).toBe(0);
	});

	it('loses the answer of a request it really handled', async () => {
		sim.injectFault({
			method: 'POST',
			path: '/v2/documents/order/',
			drop: true,
			afterHandling: true,
		});
		await expect(orderAccounts('A86212420', '2023')).rejects.toThrow();
		expect(sim.state.documents).toHaveLength(1);
		expect(sim.state.balance).toBe(95);
		expect(sim.state.ordersReceived).toBe(1);

		sim.injectFault({ path: '/v2/alerts/follow/', afterHandling: true, status: 504 });
		expect(
			(await api('POST', '/alerts/follow/', { form: { nif: 'A86212420', type: 'company' } }))
				.status,
		).toBe(504);
		expect(sim.state.watchlist).toHaveLength(1);
	});

	it('truncates a download when its answer is lost mid-way', async () => {
		sim.state.documentSizeBytes = 256 * 1024;
		const id = (await orderAccounts('A86212420', '2023')).json().document_id;
		const link = (await api('GET', `/documents/${id}/`)).json().document.download_link;
		sim.injectFault({ origin: 'download', drop: true, afterHandling: true });
		const response = await request(link);
		expect(response.headers['content-length']).toBe(String(256 * 1024));
		await expect(response.body.arrayBuffer()).rejects.toThrow();
	});
});

describe('hooks, latency and control API', () => {
	it('runs a hook after handling and before answering', async () => {
		const [before] = sim.state.addAlerts(1);
		let late: string | undefined;
		sim.onRequest({ method: 'GET', path: '/v2/alerts/' }, () => {
			late = sim.state.addAlert().id;
		});
		expect((await api('GET', '/alerts/')).json().map((a: { id: string }) => a.id)).toEqual([
			before.id,
		]);
		expect((await api('GET', '/alerts/')).json().map((a: { id: string }) => a.id)).toEqual([
			late,
			before.id,
		]);
		expect(sim.state.unreadAlerts()).toHaveLength(2);

		let calls = 0;
		const dispose = sim.onRequest({ path: '/v2/alerts/following/' }, () => void calls++, Infinity);
		await api('GET', '/alerts/following/');
		await api('GET', '/alerts/following/');
		dispose();
		await api('GET', '/alerts/following/');
		expect(calls).toBe(2);
	});

	it('adds latency to every API answer', async () => {
		sim.state.latencyMs = 80;
		const started = performance.now();
		await api('GET', '/alerts/');
		expect(performance.now() - started).toBeGreaterThanOrEqual(70);
	});

	it('adds alerts and reports counts through /__sim/', async () => {
		const origin = sim.baseUrl.replace(/\/v2$/, '');
		const created = await request(`${origin}/__sim/alerts`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ nif: 'B64717838', label: 'Revocaciones' }),
		});
		expect(created.statusCode).toBe(201);
		const alert = (await created.body.json()) as {
			entity_slug: string;
			data: Array<{ label: string }>;
		};
		expect(alert.entity_slug).toBe('brisas-del-llobregat');
		expect(alert.data[0].label).toBe('Revocaciones');

		const state = await (await request(`${origin}/__sim/state`)).body.json();
		expect(state).toMatchObject({
			unreadAlerts: 1,
			watchlistSize: 0,
			ordersReceived: 0,
			balance: 100,
		});
		expect(sim.requests).toHaveLength(0);
	});

	it('injects faults, changes settings and resets through /__sim/', async () => {
		const origin = sim.baseUrl.replace(/\/v2$/, '');
		const post = async (path: string, json: unknown) =>
			(
				await request(`${origin}${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(json),
				})
			).body.json();
		await post('/__sim/faults', { pathPattern: '^/v2/alerts/$', status: 503, times: 'Infinity' });
		expect((await api('GET', '/alerts/')).status).toBe(503);
		expect(await post('/__sim/settings', { balance: 7, alertListCap: 1 })).toMatchObject({
			balance: 7,
		});
		expect(sim.state.alertListCap).toBe(1);
		await post('/__sim/reset', {});
		expect((await api('GET', '/alerts/')).status).toBe(200);
		expect(sim.state.balance).toBe(100);
	});

	it('seeds a believable account, and reset restores it', async () => {
		const seeded = await startSimulator({ seed: true, balance: 40 });
		try {
			expect(seeded.state.watchlist.map((entity) => entity.nif)).toEqual([
				'A86212420',
				'B64717838',
				'J99216582',
			]);
			expect(seeded.state.unreadAlerts().length).toBeGreaterThanOrEqual(3);
			expect(seeded.state.documents).toHaveLength(1);
			expect(seeded.state.viewDocumentById(seeded.state.documents[0].id)?.download_link).toMatch(
				/^https:\/\/localhost:\d+\/files\//,
			);
			expect(seeded.state.balance).toBe(40);
			seeded.state.addAlerts(2);
			seeded.state.unfollow('A86212420');
			seeded.reset();
			expect(seeded.state.watchlist).toHaveLength(3);
			expect(seeded.state.unreadAlerts()).toHaveLength(3);
		} finally {
			await seeded.close();
		}
	});

	it('keeps connections alive across requests', async () => {
		const agent = new Agent({ connections: 1 });
		const authorization = basicAuth();
		let connects = 0;
		agent.on('connect', () => connects++);
		for (let i = 0; i < 20; i++) {
			const response = await request(`${sim.baseUrl}/alerts/`, {
				dispatcher: agent,
				headers: { authorization },
			});
			await response.body.text();
		}
		expect(connects).toBe(1);
		await agent.close();
	});
});

describe('NIF rules', () => {
	it('accepts the reference identifiers and computes CIF check characters', () => {
		for (const nif of ['A86212420', 'B64717838', 'J99216582', '12345678Z', 'X1234567L'])
			expect(isValidNif(nif)).toBe(true);
		expect(isValidNif('A86212421')).toBe(false);
		expect(makeCif('S', '2800001')).toBe('S2800001F');
		expect(makeCif('A', '2801234')).toBe('A28012342');
	});

	// The simulator validates NIFs as the server does, with code of its own; the node cleans up
	// what users type and checks before sending. Both must agree on every NIF the node sends.
	it.each([
		'B64717838',
		'b64717838',
		'B-64717838',
		'B.64717838',
		'B 6471 7838',
		'es-b64.717.838',
		'ES B64717838',
		'a86.212.420',
		'j-99 216-582',
		'12.345.678-z',
		'x 1234567 l',
		'y1234567x',
		'S2800001F',
		'S2800001-6',
		'A86212421',
		'B64717839',
		'B6471783',
		'K1234567A',
		'I1234567A',
		'ES-B6471783',
	])('agrees with the node on %j', (raw) => {
		const nif = normalizeNif(raw);
		expect(isValidNif(nif)).toBe(explainInvalidNif(nif) === undefined);
	});
});
