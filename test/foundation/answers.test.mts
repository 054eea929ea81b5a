import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { findErrorCode } from '../../nodes/LibreBor/transport/errorCauses.ts';
import { parseResponseBody } from '../../nodes/LibreBor/transport/responseBody.ts';
import {
	startHttpsTestServer,
	triggerSession,
	type HttpsTestServer,
} from '../../tools/engine/index.mts';
import { startSimulator, type Fault } from '../../tools/simulator/index.mts';
import { placedDocument, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { inVirtualTime, virtualClock } from '../support/virtualTime.mts';

// The answers LibreBOR (or a proxy in front of it) can give, and what the user reads of each, on
// one operation. The faults of test/faults/faultKinds.mts (401, 429, server errors, a dropped or
// slow connection, a 2xx that is no JSON) are checked there on every operation, message and
// advice; here, what one operation shows of them only: the exact text, the status. The nodes wait
// on a virtual clock, as in retries.test.mts.
vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

const sim = useSimulator();
const alerts = '/v2/alerts/';
const alertId = '3f1c2b9e-8d4a-4c6b-9f0e-2a7d5c1b8e34';
const getAlerts: INodeParameters = { resource: 'alert', operation: 'getMany' };
const markAsRead: INodeParameters = { resource: 'alert', operation: 'markAsRead', alertId };
const order: INodeParameters = {
	resource: 'document',
	operation: 'order',
	nif: 'B64717838',
	year: 2023,
};
const run = (parameters: INodeParameters, options: Parameters<typeof runLibreBor>[2] = {}) =>
	inVirtualTime(runLibreBor(sim(), parameters, options));
const answerOf = async (fault: Fault, parameters = getAlerts) => {
	sim().injectFault({ path: alerts, ...fault });
	const { error } = await run(parameters);
	return { message: error?.message, description: (error as { description?: string })?.description };
};
/** A pattern that backtracks on a long answer takes minutes: a case that takes 5 s has stalled. */
const stallGuardMs = 5_000;

describe('The error of each status', () => {
	const redirect =
		'The password is never sent on a redirect. Check the base URL of the credential: use the final HTTPS address of the API, ending in its version segment, such as /v2.';
	const refused = 'Check the values sent; the answer from the service is shown below.';
	const subscription =
		'Alerts and documents are beta features of the LibreBOR API: they need an API subscription and a request to the provider to enable them. Ordering a document also needs a positive prepaid balance, topped up in the LibreBOR user panel, Documents section.';
	const notFound =
		'Check the identifier (NIF, alert ID or document ID). If every call answers 404, check the base URL of the credential: it must end in the version segment, such as /v2.';
	const serverError =
		'The service failed or is unavailable; reads were retried within a small budget. Try again later; if it persists, contact LibreBOR support.';
	const unexpected = (status: number) => `LibreBOR answered with an unexpected status (${status})`;
	const redirected = (status: number) =>
		`LibreBOR answered with a redirect (${status}), which the node does not follow`;
	const refusedAccess = (status: number) => `LibreBOR refused access to this feature (${status})`;
	const failed = (status: number) => `LibreBOR had a server error (${status})`;
	const badGateway = {
		contentType: 'text/html',
		body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
	};
	// Status, message, description, what the description quotes of the answer (sent as its
	// "message", unless the answer is given).
	it.each<[number, string, string, string?, Partial<Fault>?]>([
		[300, redirected(300), redirect],
		[399, redirected(399), redirect],
		[400, unexpected(400), refused],
		[402, refusedAccess(402), subscription, 'Payment required'],
		[403, refusedAccess(403), subscription, 'Beta access required'],
		[404, 'LibreBOR did not find what was asked for (404)', notFound, 'Not found.'],
		[418, unexpected(418), refused],
		[500, failed(500), serverError, 'boom'],
		[502, failed(502), serverError, '502 Bad Gateway', badGateway],
		[599, failed(599), serverError],
	])('%d', async (status, message, advice, said, answer) => {
		const body = said ? JSON.stringify({ message: said }) : '{}';
		sim().injectFault({ path: alerts, status, body, retryAfter: 0, times: Infinity, ...answer });
		const { error } = await run(getAlerts);
		const description = said ? `${advice} LibreBOR said: "${said}"` : advice;
		expect(error).toMatchObject({ message, description, httpCode: String(status) });
	});
});

describe('What LibreBOR said, in the error of a refused request', () => {
	const refused = 'Check the values sent; the answer from the service is shown below.';
	it.each<[string, string, string | undefined, string | undefined]>([
		[
			'skips a blank message for the detail',
			'{"message":" \\n","detail":"Unknown NIF"}',
			undefined,
			'Unknown NIF',
		],
		[
			'reads the errors key last',
			'{"message":"","detail":"","error":" ","errors":"Bad year"}',
			undefined,
			'Bad year',
		],
		['reads the error key', '{"error":"Quota exceeded"}', undefined, 'Quota exceeded'],
		// The registry look-ups' error: a message, and the code when it is a text.
		[
			'quotes an error object with its code',
			'{"error":{"message":"Invalid NIF","code":"NIF_INVALID"}}',
			undefined,
			'Invalid NIF (NIF_INVALID)',
		],
		[
			'quotes an error object without an empty code',
			'{"error":{"message":"Invalid NIF","code":""}}',
			undefined,
			'Invalid NIF',
		],
		[
			'quotes an error object without a code that is no text',
			'{"error":{"message":"Invalid NIF","code":7}}',
			undefined,
			'Invalid NIF',
		],
		[
			'says nothing of an error object with a blank message',
			'{"error":{"message":" ","code":"X"}}',
			undefined,
			undefined,
		],
		[
			'says nothing of an error object whose message is no text',
			'{"error":{"message":7}}',
			undefined,
			undefined,
		],
		['says nothing of a null error', '{"error":null}', undefined, undefined],
		['says nothing of a list of errors', '{"errors":["Bad year"]}', undefined, undefined],
		['says nothing of a JSON array', '["Bad year"]', undefined, undefined],
		['says nothing of a JSON null', 'null', undefined, undefined],
		['quotes a text body', 'Bad things happened', 'text/plain', 'Bad things happened'],
		['quotes a page without its tags', '<p>Service\n\n  down</p>', 'text/html', 'Service down'],
		[
			'keeps apart words that only tags separate',
			'<td>Service</td><td>down</td>',
			'text/html',
			'Service down',
		],
		['folds whitespace', '{"detail":"Bad \\n\\n\\t  year"}', undefined, 'Bad year'],
		[
			'keeps a text of 200 characters whole',
			JSON.stringify({ detail: `${'y'.repeat(199)}z` }),
			undefined,
			`${'y'.repeat(199)}z`,
		],
		[
			'cuts a text of 201 characters at 200',
			JSON.stringify({ detail: 'x'.repeat(201) }),
			undefined,
			`${'x'.repeat(200)}…`,
		],
		[
			'cuts a text of 100,000 characters at 200, without stalling',
			JSON.stringify({ detail: 'x'.repeat(100_000) }),
			undefined,
			`${'x'.repeat(200)}…`,
		],
		[
			'keeps a text of 800 characters, mostly spaces, whole',
			JSON.stringify({ detail: `Bad${' '.repeat(793)}year` }),
			undefined,
			'Bad year',
		],
		[
			'marks a cut past 800 characters, even of spaces',
			JSON.stringify({ detail: `Bad${' '.repeat(1000)}year` }),
			undefined,
			'Bad…',
		],
	])(
		'%s',
		async (_case, body, contentType, said) => {
			const { message, description } = await answerOf({ status: 400, body, contentType });
			expect(message).toBe('LibreBOR answered with an unexpected status (400)');
			expect(description).toBe(said ? `${refused} LibreBOR said: "${said}"` : refused);
		},
		stallGuardMs,
	);
});

describe('A 2xx answer that is not the JSON expected', () => {
	const shape = (what: string) =>
		`LibreBOR answered GET /alerts/ with ${what} instead of the expected JSON`;
	it.each<[string, string, string, string]>([
		[
			'HTML by its content type, in any letter case',
			'Text/HTML; Charset=UTF-8',
			'Down for maintenance',
			shape('an HTML page ("Down for maintenance")'),
		],
		[
			'HTML by its leading tag, whatever the content type',
			'text/plain',
			'\n  <!DOCTYPE html><title>Gateway</title>',
			shape('an HTML page ("Gateway")'),
		],
		[
			'text with a tag further on',
			'text/plain',
			'Upstream sent <html>',
			shape('text that is not JSON ("Upstream sent")'),
		],
		['only whitespace', 'application/json', ' \n\t ', shape('an empty body')],
	])('%s', async (_case, contentType, body, expected) => {
		const { message } = await answerOf({ status: 200, contentType, body });
		expect(message).toBe(expected);
	});

	it('JSON of another shape, with the advice of every answer that is no JSON', async () => {
		const answer = await answerOf({
			status: 200,
			contentType: 'application/json',
			body: '{"alerts": []}',
		});
		const advice =
			'A proxy, a maintenance page or a wrong base URL can cause this. Check the base URL of the credential and try again later.';
		expect(answer).toEqual({ message: shape('JSON of an unexpected shape'), description: advice });
		// And with what LibreBOR says went wrong, when it says it with a 200.
		const said = await answerOf({
			status: 200,
			contentType: 'application/json',
			body: '{"error": "API subscription required"}',
		});
		expect(said.description).toBe(`${advice} LibreBOR said: "API subscription required"`);
		// A page's text is quoted in the message already, not again.
		const page = await answerOf({ status: 200, contentType: 'text/html', body: '<p>Sorry</p>' });
		expect(page.description).toBe(advice);
	});

	it('reads no body as empty, a body n8n already parsed as it is, and bytes as their text', () => {
		const json = { 'content-type': 'application/json' };
		expect(parseResponseBody(undefined, json)).toEqual({ kind: 'empty' });
		expect(parseResponseBody(null, json)).toEqual({ kind: 'empty' });
		const parsed = { id: 1 };
		expect(parseResponseBody(parsed, json)).toEqual({ kind: 'json', value: parsed });
		expect(parseResponseBody(Buffer.from(' {"id":1} '), json)).toEqual({
			kind: 'json',
			value: { id: 1 },
		});
		expect(parseResponseBody(Buffer.from('<html>down</html>'), {})).toEqual({
			kind: 'html',
			text: '<html>down</html>',
		});
	});

	describe('from a server that sends no content type', () => {
		let bare: HttpsTestServer;
		beforeAll(async () => {
			bare = await startHttpsTestServer((request, response) =>
				request.url?.endsWith('/alerts/')
					? response.writeHead(200).end('Not JSON')
					: response.writeHead(204).end(),
			);
		});
		afterAll(async () => await bare.close());

		it.each([
			[
				'/alerts/',
				getAlerts,
				'LibreBOR answered GET /alerts/ with text that is not JSON ("Not JSON") instead of the expected JSON',
			],
			[
				'204',
				markAsRead,
				`LibreBOR answered GET /alerts/mark_as_read/${alertId}/ with an empty body instead of the expected JSON`,
			],
		])('%s', async (_case, parameters, expected) => {
			const baseUrl = `${bare.origin.replace('127.0.0.1', 'localhost')}/v2`;
			const result = await run(parameters, { credentials: { baseUrl } });
			expect(result.error?.message).toBe(expected);
		});
	});
});

describe('A change LibreBOR does not confirm', () => {
	it.each<[string, string, string]>([
		['null', 'null', 'JSON of an unexpected shape'],
		['a list', '[{"result":"success"}]', 'JSON of an unexpected shape'],
		['a string', '"success"', 'JSON of an unexpected shape'],
	])('fails on %s instead of an object', async (_case, body, what) => {
		const { message } = await answerOf(
			{ path: `${alerts}mark_as_read/*`, status: 200, body },
			markAsRead,
		);
		expect(message).toBe(
			`LibreBOR answered GET /alerts/mark_as_read/${alertId}/ with ${what} instead of the expected JSON`,
		);
	});

	it('fails on a result other than success, and says what LibreBOR said', async () => {
		const body = '{"result":"failed","detail":"Alert not found"}';
		const { message, description } = await answerOf(
			{ path: `${alerts}mark_as_read/*`, status: 200, body },
			markAsRead,
		);
		expect(message).toBe(
			`LibreBOR did not confirm GET /alerts/mark_as_read/${alertId}/: it answered with result "failed"`,
		);
		expect(description).toBe(
			'Nothing shows that the change was made. LibreBOR said: "Alert not found" Check the value sent, then run the item again.',
		);
	});

	it('takes {"result":"success"} as done', async () => {
		const body = '{"result":"success"}';
		sim().injectFault({ path: `${alerts}mark_as_read/*`, status: 200, body });
		const result = await run(markAsRead);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
	});

	it('fails on {} (no result: the contract says every change answers with one), as not shown done', async () => {
		const { message } = await answerOf(
			{ path: `${alerts}mark_as_read/*`, status: 200, body: '{}' },
			markAsRead,
		);
		expect(message).toBe(
			`LibreBOR did not confirm GET /alerts/mark_as_read/${alertId}/: it answered with result "none"`,
		);
	});
});

describe('An order, sent once', () => {
	const lost =
		"The order of the 2023 annual accounts of B64717838 may have been placed: LibreBOR's answer was lost";
	const check =
		'It was not sent again, so that it is not charged twice. Check the Documents section of the LibreBOR user panel (or the balance) before ordering again; if it is there, use its document ID with the Download operation.';
	/** A 429 to an order, with its Retry-After, and the wait LibreBOR asked for as the error says it. */
	const throttled = (
		label: string,
		retryAfter?: string,
		waitS?: number,
	): [string, Fault, string, string] => [
		label,
		{ status: 429, ...(retryAfter !== undefined && { retryAfter }), body: '{}' },
		'LibreBOR is rate limiting the requests (429)',
		`Too many requests in a short time; LibreBOR refused it, and it was not sent again: a request that spends money is sent once.${waitS === undefined ? '' : ` LibreBOR asked to wait ${waitS} s.`} Lower the node's concurrency or space the executions out.`,
	];
	it.each<[string, Fault, string, string]>([
		throttled('a 429 that asks to wait 1.5 s', '1.5', 2),
		throttled('a 429 without Retry-After'),
		throttled('a 429 whose Retry-After is a past date in ISO form', '2015-10-21 07:28:00', 0),
		[
			'a 404 for a company the registry does not have',
			{ status: 404, body: '{"detail":"No such company"}' },
			'LibreBOR could not order the annual accounts of B64717838 for 2023 (404)',
			'Check that the company and the year exist in the registry. LibreBOR said: "No such company"',
		],
		['a 500', { status: 500 }, lost, `${check} (LibreBOR answered with a server error, 500.)`],
		// A 503 that a read would wait out as a throttle.
		[
			'a 503',
			{ status: 503, retryAfter: 0 },
			lost,
			`${check} (LibreBOR answered with a server error, 503.)`,
		],
		[
			'a 200 HTML page',
			{ status: 200, contentType: 'text/html', body: '<html>Busy</html>' },
			lost,
			`${check} (LibreBOR answered 200 with an answer that could not be read.)`,
		],
		['a dropped connection', { drop: true }, lost, `${check} (network error ECONNRESET)`],
	])('says what %s means', async (_case, fault, message, description) => {
		const answer = await answerOf(
			{ method: 'POST', path: '/v2/documents/order/', ...fault },
			order,
		);
		expect(answer).toEqual({ message, description });
		expect(sim().requestsTo('POST', '/v2/documents/order/')).toHaveLength(1);
	});
});

describe('A run that LibreBOR keeps throttling', () => {
	it('says the time budget it spent, in minutes', async () => {
		const { message } = await answerOf(
			{ path: `${alerts}mark_as_read/*`, status: 429, retryAfter: 3600, times: Infinity },
			{ ...markAsRead, options: { budgetMinutes: 0.25 } },
		);
		expect(message).toBe(
			"LibreBOR kept rate limiting the requests (429): stopped because the run's time budget of 0.25 min is spent; 0 of 1 items were done by then",
		);
	});

	it('says nothing was sent, in a poll of the trigger, which counts no items', async () => {
		sim().injectFault({ path: alerts, status: 429, retryAfter: 3600, times: Infinity });
		await expect(triggerSession(sim()).poll()).rejects.toThrow(
			"LibreBOR kept rate limiting the requests (429): stopped because the run's time budget of 5 min is spent; nothing more was sent",
		);
	});

	it('says nothing of a wait LibreBOR did not ask for', async () => {
		const { message, description } = await answerOf(
			{ path: `${alerts}mark_as_read/*`, status: 429, times: Infinity },
			markAsRead,
		);
		expect(message).toMatch(/stopped because LibreBOR refused every request for too long/);
		expect(description).toMatch(
			/^LibreBOR asked the node to slow down; it waited and sent fewer requests at once\. To resume/,
		);
	});
});

describe('What LibreBOR receives', () => {
	it('a read asks for JSON and carries no body', async () => {
		await run(getAlerts);
		const [read] = sim().requestsTo('GET', alerts);
		expect(read.headers.accept).toBe('application/json');
		expect(read.headers['content-type']).toBeUndefined();
		expect(read.body).toBe('');
	});

	it('a change asks for JSON and sends its fields as a form', async () => {
		await run({ resource: 'watchlist', operation: 'follow', nif: 'B64717838' });
		const [follow] = sim().requestsTo('POST', '/v2/alerts/follow/');
		expect(follow.headers.accept).toBe('application/json');
		expect(follow.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(follow.form).toEqual({ nif: 'B64717838', type: 'company' });
	});
});

describe('Errors with no answer', () => {
	const timed = async (work: Promise<Awaited<ReturnType<typeof run>>>) => {
		const started = virtualClock.now();
		const result = await work;
		return { ...result, waitedMs: virtualClock.now() - started };
	};

	it.each<[string, Fault, string]>([
		['a dropped connection', { drop: true }, 'Could not reach LibreBOR for GET /alerts/'],
		[
			'an answer past the timeout',
			{ delayMs: 3000 },
			'LibreBOR did not answer in time for GET /alerts/',
		],
	])('gives no HTTP code to %s', async (_case, fault, message) => {
		sim().injectFault({ path: alerts, times: Infinity, ...fault });
		const result = await run({ ...getAlerts, options: { timeout: 1 } });
		expect(result.error).toMatchObject({ message, httpCode: null });
	});

	it('does not reach an unknown host and says so clearly', async () => {
		const result = await run(
			{ ...getAlerts, options: { timeout: 2 } },
			{ credentials: { baseUrl: 'https://no-such-host.invalid/v2' } },
		);
		expect(result.error?.message).toMatch(/Could not reach LibreBOR for GET \/alerts\//);
		expect(result.error?.description).toBe(
			'Check the network and the base URL of the credential. Reads were retried within a small budget. (network error ENOTFOUND)',
		);
	});

	it('says a refused connection was retried, and names its network error', async () => {
		// A port the simulator listened on a moment ago: nothing listens there now.
		const gone = await startSimulator();
		const baseUrl = gone.baseUrl;
		await gone.close();
		const result = await timed(run(getAlerts, { credentials: { baseUrl } }));
		expect(result.error?.message).toBe('Could not reach LibreBOR for GET /alerts/');
		expect(result.error?.description).toMatch(
			/Reads were retried within a small budget\. \(network error ECONNREFUSED\)$/,
		);
		// Tried four times: the three backoffs of the retry budget.
		expect(result.waitedMs).toBe(3_500);
	});

	it('sends nothing to a server whose certificate is not trusted, does not try again, and says how to fix it', async () => {
		const untrusted = await startSimulator({ tlsDir: 'tools/simulator/tls/untrusted' });
		try {
			const result = await timed(run(getAlerts, { credentials: { baseUrl: untrusted.baseUrl } }));
			expect(result.error?.message).toBe(
				'The HTTPS certificate of the LibreBOR server is not trusted; nothing was sent',
			);
			expect(result.error?.description).toMatch(
				/^Check the base URL of the credential\. A custom server needs a certificate that n8n trusts \(for a private CA, start n8n with NODE_EXTRA_CA_CERTS\)\. \(network error [A-Z_]*SELF_SIGNED[A-Z_]*\)$/,
			);
			expect(untrusted.requests).toEqual([]);
			expect(result.waitedMs).toBe(0);
		} finally {
			await untrusted.close();
		}
	});

	describe('the network error code it names', () => {
		/** An error wrapping the next one through `cause`, for each code given (outermost first). */
		const chainOf = (codes: unknown[]) =>
			codes.reduceRight<unknown>((cause, code) => ({ code, cause }), undefined);

		it('skips codes that are not Node codes, up to five errors deep', () => {
			expect(findErrorCode(chainOf(['not a code', '1_ABC', 'ABC-def', 42, 'ECONNRESET']))).toBe(
				'ECONNRESET',
			);
		});

		it('looks no deeper than five errors', () => {
			expect(findErrorCode(chainOf([1, 2, 3, 4, 5, 'ECONNRESET']))).toBeUndefined();
		});

		it('ends at a cause that is null or no object', () => {
			expect(findErrorCode({ cause: null })).toBeUndefined();
			const notAnObject = Object.assign(() => undefined, { code: 'ECONNRESET' });
			expect(findErrorCode({ cause: notAnObject })).toBeUndefined();
		});
	});
});

describe('A download', () => {
	it('keeps the media type of the file without its parameters or spaces', async () => {
		const document = placedDocument(sim());
		sim().injectFault({
			origin: 'download',
			afterHandling: true,
			headers: { 'content-type': 'application/pdf ; name=cuentas.pdf' },
		});
		const result = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'download',
			documentId: document.id,
			binaryPropertyName: 'data',
		});
		expect(result.items[0].binary?.data.mimeType).toBe('application/pdf');
	});
});
