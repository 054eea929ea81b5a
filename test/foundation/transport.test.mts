import { describe, expect, it } from 'vitest';

import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';

const sim = useSimulator();
const getAlerts = () =>
	runLibreBor(sim(), { resource: 'alert', operation: 'getMany', options: { timeout: 1 } });
const alertReads = () => sim().requestsTo('GET', '/v2/alerts/').length;
const descriptionOf = (error: unknown) =>
	String((error as { description?: string } | undefined)?.description);

describe('transport: clear errors for each failure', () => {
	const cases: Array<{
		name: string;
		fault: Record<string, unknown>;
		message: RegExp;
		description: RegExp;
	}> = [
		{
			name: '401',
			fault: { status: 401, body: '{"detail":"Invalid username/password."}' },
			message: /refused the API user or password \(401\)/,
			description: /API > Credentials/,
		},
		{
			name: '402',
			fault: { status: 402, body: '{"message":"Payment required"}' },
			message: /refused access to this feature \(402\)/,
			description: /API subscription.*positive prepaid balance.*Documents section/,
		},
		{
			name: '403',
			fault: { status: 403, body: '{"detail":"Beta access required"}' },
			message: /\(403\)/,
			description: /API subscription.*LibreBOR said: "Beta access required"/,
		},
		{
			name: '404',
			fault: { status: 404, body: '{"detail":"Not found."}' },
			message: /did not find.*\(404\)/,
			description: /base URL/,
		},
		{
			name: '429 past the budget',
			fault: { status: 429, retryAfter: 0, times: Infinity },
			message: /rate limiting.*\(429\)/,
			description: /Parallel Requests/,
		},
		{
			name: '500',
			fault: { status: 500, retryAfter: 0, times: Infinity, body: '{"message":"boom"}' },
			message: /server error \(500\)/,
			description: /LibreBOR said: "boom"/,
		},
		{
			name: '502 HTML page',
			fault: {
				status: 502,
				retryAfter: 0,
				times: Infinity,
				contentType: 'text/html',
				body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
			},
			message: /server error \(502\)/,
			description: /502 Bad Gateway/,
		},
		{
			name: '200 HTML page',
			fault: {
				status: 200,
				contentType: 'text/html',
				body: '<!doctype html><title>Maintenance</title>',
			},
			message: /with an HTML page \("Maintenance"\) instead of the expected JSON/,
			description: /base URL/,
		},
		{
			name: '200 empty body',
			fault: { status: 200, body: '' },
			message: /with an empty body instead of the expected JSON/,
			description: /proxy/,
		},
		{
			name: '200 malformed JSON',
			fault: { status: 200, contentType: 'application/json', body: '{"id": ' },
			message: /with text that is not JSON/,
			description: /proxy/,
		},
		{
			name: '200 unexpected shape',
			fault: { status: 200, contentType: 'application/json', body: '{"alerts": []}' },
			message: /JSON of an unexpected shape/,
			description: /proxy/,
		},
		{
			name: 'dropped connection',
			fault: { drop: true, times: Infinity },
			message: /Could not reach LibreBOR.*GET \/alerts\//,
			description: /network/,
		},
		{
			name: 'slow answer',
			fault: { delayMs: 3000, times: Infinity },
			message: /did not answer in time/,
			description: /network/,
		},
	];

	it.each(cases)('$name', async ({ fault, message, description }) => {
		sim().injectFault({ path: '/v2/alerts/', ...fault });
		const result = await getAlerts();
		expect(result.error?.message).toMatch(message);
		expect(descriptionOf(result.error)).toMatch(description);
	});
});

describe('transport: retries', () => {
	it('retries a read after the time Retry-After asks for, then succeeds', async () => {
		const alert = sim().state.addAlert();
		sim().injectFault({ path: '/v2/alerts/', status: 429, retryAfter: 1 });
		const started = Date.now();
		const result = await getAlerts();
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		expect(jsonOf(result).map((item) => item.id)).toEqual([alert.id]);
		expect(alertReads()).toBe(2);
	});

	it('honours a Retry-After given as an HTTP date', async () => {
		sim().injectFault({
			path: '/v2/alerts/',
			status: 503,
			retryAfter: new Date(Date.now() + 1500).toUTCString(),
		});
		const started = Date.now();
		const result = await getAlerts();
		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(500);
		expect(alertReads()).toBe(2);
	});

	it('backs off without Retry-After and recovers from 5xx and dropped connections', async () => {
		sim().injectFault({ path: '/v2/alerts/', status: 502 });
		sim().injectFault({ path: '/v2/alerts/', drop: true });
		const result = await getAlerts();
		expect(result.error).toBeUndefined();
		expect(alertReads()).toBe(3);
	});

	it('stops at the retry budget: one request and three retries', async () => {
		sim().injectFault({ path: '/v2/alerts/', status: 502, retryAfter: 0, times: Infinity });
		const result = await getAlerts();
		expect(result.error?.message).toMatch(/\(502\)/);
		expect(alertReads()).toBe(4);
	});

	it('stops waiting out 503 once the server has refused six times in a row with no progress', async () => {
		sim().injectFault({ path: '/v2/alerts/', status: 503, retryAfter: 0, times: Infinity });
		const result = await getAlerts();
		expect(result.error?.message).toMatch(
			/server error \(503\) again and again: stopped because LibreBOR refused every request/,
		);
		expect(alertReads()).toBe(6);
	});

	it('does not wait when Retry-After asks for longer than the budget allows, and says how long', async () => {
		sim().injectFault({ path: '/v2/alerts/', status: 429, retryAfter: 3600, times: Infinity });
		const result = await getAlerts();
		expect(descriptionOf(result.error)).toMatch(/asked to wait 3600 s/);
		expect(alertReads()).toBe(1);
	});

	it('never retries a document order, whatever the failure', async () => {
		for (const fault of [
			{ status: 503, retryAfter: 0 },
			{ status: 429, retryAfter: 0 },
			{ drop: true },
		]) {
			sim().reset();
			sim().injectFault({ method: 'POST', path: '/v2/documents/order/', ...fault });
			const result = await runLibreBor(sim(), {
				resource: 'document',
				operation: 'order',
				nif: 'B64717838',
				year: 2023,
			});
			expect(result.error).toBeDefined();
			expect(sim().requestsTo('POST', '/v2/documents/order/')).toHaveLength(1);
		}
	});

	it('does not reach an unknown host and says so clearly', async () => {
		const result = await runLibreBor(
			sim(),
			{ resource: 'alert', operation: 'getMany', options: { timeout: 2 } },
			{ credentials: { baseUrl: 'https://no-such-host.invalid/v2' } },
		);
		expect(result.error?.message).toMatch(/Could not reach LibreBOR for GET \/alerts\//);
		expect(descriptionOf(result.error)).toMatch(/network error ENOTFOUND/);
	});
});
