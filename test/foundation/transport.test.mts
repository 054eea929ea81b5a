import { describe, expect, it, vi } from 'vitest';

import { startSimulator } from '../../tools/simulator/index.mts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { inVirtualTime, virtualClock } from '../support/virtualTime.mts';

// The nodes wait on a virtual clock: a retry's wait is read exactly and takes no real time. The
// simulator keeps real time, so that a request timeout is a real one.
vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

const sim = useSimulator();
const getAlerts = () =>
	inVirtualTime(
		runLibreBor(sim(), { resource: 'alert', operation: 'getMany', options: { timeout: 1 } }),
	);
/** Runs `work` and says how long the node waited on its clock meanwhile. */
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; waitedMs: number }> {
	const started = virtualClock.now();
	const result = await work();
	return { result, waitedMs: virtualClock.now() - started };
}
const SECOND = 1000;
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
		const { result, waitedMs } = await timed(getAlerts);
		expect(waitedMs).toBe(SECOND);
		expect(jsonOf(result).map((item) => item.id)).toEqual([alert.id]);
		expect(alertReads()).toBe(2);
	});

	it('honours a Retry-After given as an HTTP date', async () => {
		// An HTTP date has whole seconds: two seconds on, rounded up to one.
		const retryAt = Math.ceil((virtualClock.now() + 2 * SECOND) / SECOND) * SECOND;
		sim().injectFault({
			path: '/v2/alerts/',
			status: 503,
			retryAfter: new Date(retryAt).toUTCString(),
		});
		const started = virtualClock.now();
		const result = await getAlerts();
		expect(result.error).toBeUndefined();
		expect(virtualClock.now()).toBe(retryAt);
		expect(virtualClock.now() - started).toBeGreaterThanOrEqual(2 * SECOND);
		expect(alertReads()).toBe(2);
	});

	it.each([500, 502, 504])(
		'waits the Retry-After of a %d before trying again, not the shorter backoff',
		async (status) => {
			sim().injectFault({ path: '/v2/alerts/', status, retryAfter: 7 });
			const { result, waitedMs } = await timed(getAlerts);
			expect(result.error).toBeUndefined();
			expect(waitedMs).toBe(7 * SECOND);
			expect(alertReads()).toBe(2);
		},
	);

	it('backs off without Retry-After, half a second then a second, and recovers from 5xx and dropped connections', async () => {
		sim().injectFault({ path: '/v2/alerts/', status: 502 });
		sim().injectFault({ path: '/v2/alerts/', drop: true });
		const { result, waitedMs } = await timed(getAlerts);
		expect(result.error).toBeUndefined();
		expect(waitedMs).toBe(1.5 * SECOND);
		expect(alertReads()).toBe(3);
	});

	it('stops at the retry budget: one request and three retries, 0.5 + 1 + 2 s apart', async () => {
		sim().injectFault({ path: '/v2/alerts/', status: 502, times: Infinity });
		const { result, waitedMs } = await timed(getAlerts);
		expect(result.error?.message).toMatch(/\(502\)/);
		expect(waitedMs).toBe(3.5 * SECOND);
		expect(alertReads()).toBe(4);
	});

	it('waits a Retry-After of 30 s on a server error, and does not wait one of 31 s', async () => {
		sim().injectFault({ path: '/v2/alerts/', status: 500, retryAfter: 30 });
		const waited = await timed(getAlerts);
		expect(waited.result.error).toBeUndefined();
		expect(waited.waitedMs).toBe(30 * SECOND);
		expect(alertReads()).toBe(2);

		sim().reset();
		sim().injectFault({ path: '/v2/alerts/', status: 500, retryAfter: 31, times: Infinity });
		const refused = await timed(getAlerts);
		expect(refused.result.error?.message).toMatch(/server error \(500\)/);
		expect(refused.waitedMs).toBe(0);
		expect(alertReads()).toBe(1);
	});

	it('waits at most 60 s in all for the retries of one request', async () => {
		// 20 s three times fits the 60 s exactly: every retry is sent.
		sim().injectFault({ path: '/v2/alerts/', status: 502, retryAfter: 20, times: Infinity });
		const fits = await timed(getAlerts);
		expect(fits.waitedMs).toBe(60 * SECOND);
		expect(alertReads()).toBe(4);

		// 25 s a third time would make 75 s: the request fails after two retries.
		sim().reset();
		sim().injectFault({ path: '/v2/alerts/', status: 502, retryAfter: 25, times: Infinity });
		const over = await timed(getAlerts);
		expect(over.result.error?.message).toMatch(/server error \(502\)/);
		expect(over.waitedMs).toBe(50 * SECOND);
		expect(alertReads()).toBe(3);
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
		const mayBePlaced = /^The order of the 2023 annual accounts of B64717838 may have been placed/;
		for (const [fault, message, reason] of [
			[{ status: 503, retryAfter: 0 }, mayBePlaced, /answered with a server error, 503/],
			[{ status: 429, retryAfter: 0 }, /rate limiting the requests \(429\)/, /LibreBOR refused it/],
			[{ drop: true }, mayBePlaced, /network error ECONNRESET/],
		] as const) {
			sim().reset();
			sim().injectFault({ method: 'POST', path: '/v2/documents/order/', ...fault });
			const result = await inVirtualTime(
				runLibreBor(sim(), {
					resource: 'document',
					operation: 'order',
					nif: 'B64717838',
					year: 2023,
				}),
			);
			expect(result.error?.message).toMatch(message);
			expect(descriptionOf(result.error)).toMatch(/not sent again/);
			expect(descriptionOf(result.error)).toMatch(reason);
			expect(sim().requestsTo('POST', '/v2/documents/order/')).toHaveLength(1);
		}
	});
});

describe('transport: connection failures', () => {
	it('does not reach an unknown host and says so clearly', async () => {
		const result = await inVirtualTime(
			runLibreBor(
				sim(),
				{ resource: 'alert', operation: 'getMany', options: { timeout: 2 } },
				{ credentials: { baseUrl: 'https://no-such-host.invalid/v2' } },
			),
		);
		expect(result.error?.message).toMatch(/Could not reach LibreBOR for GET \/alerts\//);
		expect(descriptionOf(result.error)).toBe(
			'Check the network and the base URL of the credential. Reads were retried within a small budget. (network error ENOTFOUND)',
		);
	});

	it('says a refused connection was retried, and names its network error', async () => {
		// A port the simulator listened on a moment ago: nothing listens there now.
		const gone = await startSimulator();
		const baseUrl = gone.baseUrl;
		await gone.close();
		const { result, waitedMs } = await timed(() =>
			inVirtualTime(
				runLibreBor(
					sim(),
					{ resource: 'alert', operation: 'getMany' },
					{ credentials: { baseUrl } },
				),
			),
		);
		expect(result.error?.message).toBe('Could not reach LibreBOR for GET /alerts/');
		expect(descriptionOf(result.error)).toMatch(
			/Reads were retried within a small budget\. \(network error ECONNREFUSED\)$/,
		);
		// Tried four times: the three backoffs of the retry budget.
		expect(waitedMs).toBe(3.5 * SECOND);
	});

	it('sends nothing to a server whose certificate is not trusted, does not try again, and says how to fix it', async () => {
		const untrusted = await startSimulator({ tlsDir: 'tools/simulator/tls/untrusted' });
		try {
			const { result, waitedMs } = await timed(() =>
				inVirtualTime(
					runLibreBor(
						sim(),
						{ resource: 'alert', operation: 'getMany' },
						{ credentials: { baseUrl: untrusted.baseUrl } },
					),
				),
			);
			expect(result.error?.message).toBe(
				'The HTTPS certificate of the LibreBOR server is not trusted; nothing was sent',
			);
			expect(descriptionOf(result.error)).toMatch(
				/^Check the base URL of the credential\. A custom server needs a certificate that n8n trusts \(for a private CA, start n8n with NODE_EXTRA_CA_CERTS\)\. \(network error [A-Z_]*SELF_SIGNED[A-Z_]*\)$/,
			);
			expect(untrusted.requests).toEqual([]);
			expect(waitedMs).toBe(0);
		} finally {
			await untrusted.close();
		}
	});
});
