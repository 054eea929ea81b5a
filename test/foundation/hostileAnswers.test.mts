import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { LibreBorApi } from '../../credentials/LibreBorApi.credentials.ts';
import { fileNameFromContentDisposition } from '../../nodes/LibreBor/transport/fileName.ts';
import { outboundProtectionRefusal } from '../../nodes/LibreBor/transport/outboundProtection.ts';
import { savedWorkflow } from '../actions/orderRuns.mts';
import {
	startHttpsTestServer,
	testCredential,
	type HttpsTestServer,
} from '../../tools/engine/index.mts';
import {
	credentialsFor,
	jsonOf,
	placedDocument,
	runLibreBor,
	useSimulator,
} from '../support/libreBor.mts';

// Answers and settings no honest server or user sends, but an attacker or a broken proxy can (the
// 100,000 characters of a server's text an error quotes: answers.test.mts). The vitest timeout
// below is a stall detector: a pattern that backtracks on these inputs takes minutes.
// n8n's outbound protection is on, as an administrator turns it on, with the API's host allowed by
// name: n8n reads it once, before the engine loads.
vi.hoisted(() => {
	process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';
	process.env.N8N_SSRF_ALLOWED_HOSTNAMES = 'localhost';
});
const sim = useSimulator({ documentSizeBytes: 1024 });
const stallGuardMs = 5_000;
const followingList: INodeParameters = {
	resource: 'watchlist',
	operation: 'getMany',
	returnAll: true,
};

describe('Answers that could stall a pattern or flood a message', () => {
	it(
		'reports a 1 MB error page of "<" with a short message',
		async () => {
			sim().injectFault({
				path: '/v2/alerts/following/',
				status: 500,
				retryAfter: 0,
				times: Infinity,
				body: '<'.repeat(1 << 20),
				contentType: 'text/html',
			});
			const result = await runLibreBor(sim(), followingList, { continueOnFail: true });
			expect(jsonOf(result)[0].error).toBe('LibreBOR had a server error (500)');
			expect(JSON.stringify(jsonOf(result)).length).toBeLessThan(2_000);
		},
		stallGuardMs,
	);

	it(
		'refuses a custom base URL of 40,000 slashes at once, in the credential test and on a call',
		async () => {
			const baseUrl = `https://localhost${'/'.repeat(40_000)}v2`;
			const tested = await testCredential(
				new LibreBorApi(),
				credentialsFor(sim(), { baseUrl }).libreBorApi,
			);
			expect(tested).toMatchObject({
				status: 'Error',
				message: expect.stringMatching(/empty path segment/),
			});
			const result = await runLibreBor(sim(), followingList, { credentials: { baseUrl } });
			expect(result.error?.message).toBe(
				'The custom base URL has an empty path segment ("//"). Use the form https://localhost/v2.',
			);
			expect(result.error?.description).toBe('Open the LibreBOR credential and fix the base URL.');
			expect(sim().requests).toEqual([]);
		},
		stallGuardMs,
	);
});

describe('A base URL into an address n8n protects', () => {
	it('says n8n blocked the request and how to allow the host, and sends nothing', async () => {
		// The simulator's own address, by IP: n8n allows only its host name here.
		const baseUrl = `${sim().baseUrl.replace('localhost', '127.0.0.1')}`;
		const result = await runLibreBor(sim(), followingList, { credentials: { baseUrl } });
		expect(result.error?.message).toBe(
			"n8n's outbound protection blocked GET /alerts/following/; nothing was sent",
		);
		expect(result.error?.description).toMatch(/N8N_SSRF_ALLOWED_HOSTNAMES\.$/);
		expect(sim().requests).toEqual([]);
	});

	it('takes an order it blocked for one never sent: the next run may send it, and is blocked as well', async () => {
		const baseUrl = `${sim().baseUrl.replace('localhost', '127.0.0.1')}`;
		const order = { resource: 'document', operation: 'order', nif: 'B64717838', year: 2023 };
		const options = { credentials: { baseUrl }, workflow: savedWorkflow() };
		for (let run = 0; run < 2; run++) {
			const result = await runLibreBor(sim(), order, options);
			expect(result.error?.message).toBe(
				"n8n's outbound protection blocked POST /documents/order/; nothing was sent",
			);
		}
		expect(sim().requests).toEqual([]);
	});
});

describe('Download links into addresses n8n protects', () => {
	const metadataUrl = 'https://169.254.169.254/latest/meta-data/iam/';
	let redirector: HttpsTestServer;
	beforeAll(async () => {
		redirector = await startHttpsTestServer((_request, response) =>
			response.writeHead(302, { location: metadataUrl }).end(),
		);
	});
	afterAll(async () => await redirector.close());

	const downloadFrom = async (link: string) => {
		sim().state.downloadLinkOverride = () => link;
		const documentId = placedDocument(sim()).id;
		return await runLibreBor(
			sim(),
			{ resource: 'document', operation: 'download', documentId, binaryPropertyName: 'data' },
			{ continueOnFail: true },
		);
	};

	it.each([
		['a link into the metadata range', false],
		['a download host that redirects there', true],
	])('refuses %s, says n8n blocked it, and does not try again', async (_case, redirected) => {
		const link = redirected
			? `${redirector.origin.replace('127.0.0.1', 'localhost')}/files/next-hop`
			: metadataUrl;
		const seenBefore = redirector.requests.length;
		const result = await downloadFrom(link);
		const [item] = result.items;
		expect(item.binary).toBeUndefined();
		expect(String(item.json.error)).toBe(
			`n8n's outbound protection blocked the download of document ${sim().state.documents[0].id} from 169.254.169.254`,
		);
		expect(item.error?.description).toMatch(/^Nothing was fetched from that address\./);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(redirector.requests.length - seenBefore).toBe(redirected ? 1 : 0);
	});

	it("quotes n8n's refusal: its description first, else its message; nothing for another failure", () => {
		const refused = (fields: object) => ({ cause: { name: 'SsrfBlockedIpError', ...fields } });
		expect(outboundProtectionRefusal(refused({ description: 'private', message: 'm' }))).toBe(
			'private',
		);
		expect(outboundProtectionRefusal(refused({ message: 'blocked' }))).toBe('blocked');
		expect(outboundProtectionRefusal(new Error('ECONNRESET'))).toBeUndefined();
	});

	it('still downloads from the download host, allowed by name', async () => {
		const documentId = placedDocument(sim()).id;
		const result = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'download',
			documentId,
			binaryPropertyName: 'data',
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.data).toMatchObject({ mimeType: 'application/pdf' });
	});
});

describe('File names a download host sends', () => {
	const attachment = (name: string) => `attachment; filename="${name}"`;
	const downloadWithName = async (contentDisposition: string) => {
		const ordered = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'order',
			nif: 'B64717838',
			year: 2023,
		});
		const documentId = String(jsonOf(ordered)[0].document_id);
		sim().injectFault({
			origin: 'download',
			afterHandling: true,
			headers: { 'content-disposition': contentDisposition },
		});
		const result = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'download',
			documentId,
			binaryPropertyName: 'data',
			options: { pollInterval: 1 },
		});
		expect(result.error).toBeUndefined();
		return String(result.items[0].binary?.data.fileName);
	};

	it.each([
		['attachment; filename="../../etc/passwd"', 'passwd'],
		["attachment; filename*=UTF-8''..%2F..%2Fetc%2Fcron.d%2Fjob", 'job'],
		['attachment; filename="..\\\\windows\\\\evil.pdf"', 'evil.pdf'],
		["attachment; filename*=UTF-8''a%00b%0Ac%1Bd.pdf", 'abcd.pdf'],
		['attachment; filename=".htaccess"', 'htaccess'],
		["attachment; filename*=UTF-8''...%2F.hidden.pdf", 'hidden.pdf'],
	])('reduces %s to a safe base name', async (header, expected) => {
		expect(await downloadWithName(header)).toBe(expected);
	});

	it('cuts a very long name to the 200 characters a file system accepts, keeping its extension', async () => {
		const name = await downloadWithName(attachment(`${'a'.repeat(10_000)}.pdf`));
		expect(name).toBe(`${'a'.repeat(196)}.pdf`);
	});

	it('keeps a name of 200 characters whole', () => {
		const name = `${'a'.repeat(196)}.pdf`;
		expect(fileNameFromContentDisposition(attachment(name))).toBe(name);
	});

	it('cuts a long name without an extension, or with one over 10 characters, at 200', () => {
		const noExtension = `${'a'.repeat(300)}Z`;
		expect(fileNameFromContentDisposition(attachment(noExtension))).toBe('a'.repeat(200));
		const longExtension = `${'a'.repeat(300)}.abcdefghijk`;
		expect(fileNameFromContentDisposition(attachment(longExtension))).toBe('a'.repeat(200));
	});

	it('falls back to a name of its own when nothing safe is left', async () => {
		const name = await downloadWithName('attachment; filename="../.."');
		expect(name).toMatch(/^cuentas-anuales-[\w-]+\.pdf$/);
	});
});

describe('Records that look like n8n items', () => {
	// Keys an n8n item has: an answer that carries them must still be one item's plain `json`.
	const lookalike = {
		json: { planted: true },
		binary: { data: { data: Buffer.from('planted').toString('base64'), mimeType: 'text/plain' } },
		pairedItem: { item: 7 },
		error: 'planted',
	};
	const alertId = '3f1c2b9e-8d4a-4c6b-9f0e-2a7d5c1b8e34';

	it.each([
		[
			'Watch List > Get Many',
			followingList,
			'GET',
			'/v2/alerts/following/',
			{ entities: [{ nif: 'B64717838', ...lookalike }] },
		],
		[
			'Alert > Get Many',
			{ resource: 'alert', operation: 'getMany', output: 'alert', returnAll: true },
			'GET',
			'/v2/alerts/',
			[{ id: alertId, ...lookalike }],
		],
		[
			'Alert > Mark as Read',
			{ resource: 'alert', operation: 'markAsRead', alertId },
			'GET',
			`/v2/alerts/mark_as_read/${alertId}/`,
			{ result: 'success', ...lookalike },
		],
		[
			'Document > Get',
			{ resource: 'document', operation: 'get', documentId: 'doc-1' },
			'GET',
			'/v2/documents/doc-1/',
			{ document: { status: 'processing', ...lookalike } },
		],
		[
			'Watch List > Follow',
			{ resource: 'watchlist', operation: 'follow', nif: 'B64717838' },
			'POST',
			'/v2/alerts/follow/',
			{ result: 'success', ...lookalike },
		],
	] as Array<[string, INodeParameters, string, string, unknown]>)(
		'%s keeps an answer with json, binary, pairedItem and error keys inside the item json',
		async (_operation, parameters, method, path, answer) => {
			sim().injectFault({
				method,
				path,
				status: 200,
				body: JSON.stringify(answer),
				times: Infinity,
			});
			const result = await runLibreBor(sim(), parameters);
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
			const [item] = result.items;
			expect(item.json).toMatchObject(lookalike);
			expect(item.binary).toBeUndefined();
			expect(item.error).toBeUndefined();
			expect(item.pairedItem).toEqual({ item: 0 });
		},
	);
});
