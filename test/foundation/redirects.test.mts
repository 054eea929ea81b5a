import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { LibreBorApi } from '../../credentials/LibreBorApi.credentials.ts';
import {
	startHttpsTestServer,
	testCredential,
	type HttpsTestServer,
} from '../../tools/engine/index.mts';
import { triggerSession } from '../../tools/engine/index.mts';
import { credentialsFor, runLibreBor, useSimulator } from '../support/libreBor.mts';

// A base URL whose host answers with a redirect, to another host or down to plain http://. n8n
// copies Basic credentials onto every redirect hop unless told not to; no hop may get them.
const sim = useSimulator();

const answerEmptyList = (response: import('node:http').ServerResponse) =>
	response
		.writeHead(200, { 'content-type': 'application/json' })
		.end('{"entities":[],"alerts":[]}');

let otherHost: HttpsTestServer;
let plainHttp: Server;
let plainHttpOrigin = '';
const plainHttpSeen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
	otherHost = await startHttpsTestServer((_request, response) => answerEmptyList(response));
	plainHttp = createServer((request, response) => {
		plainHttpSeen.push(request.headers);
		answerEmptyList(response);
	});
	await new Promise<void>((resolve) => plainHttp.listen(0, '127.0.0.1', resolve));
	plainHttpOrigin = `http://127.0.0.1:${(plainHttp.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await otherHost.close();
	plainHttp.closeAllConnections();
	await new Promise((resolve) => plainHttp.close(resolve));
});
beforeEach(() => {
	otherHost.requests.length = 0;
	plainHttpSeen.length = 0;
});

const targets = [
	['another HTTPS host', () => otherHost.origin],
	['plain http://', () => plainHttpOrigin],
] as const;

/** Every request the redirect targets received, whatever headers it had. */
const reachedTargets = () => [
	...otherHost.requests.map((request) => request.headers),
	...plainHttpSeen,
];

function redirect(path: string, status: number, to: () => string, method?: string) {
	sim().injectFault({
		method,
		path,
		status,
		headers: { location: `${to()}${path}` },
		body: '',
		times: Infinity,
	});
}

describe.each(targets)('A redirect to %s', (_target, origin) => {
	it('fails the credential test with advice, and the target receives no password', async () => {
		redirect('/v2/alerts/following/', 302, origin);
		const tested = await testCredential(new LibreBorApi(), credentialsFor(sim()).libreBorApi);
		expect(tested).toEqual({
			status: 'Error',
			message: expect.stringContaining('never sent on a redirect'),
		});
		expect(reachedTargets().filter((headers) => headers.authorization)).toEqual([]);
	});

	it.each([
		[
			'a read',
			'GET',
			'/v2/alerts/following/',
			{ resource: 'watchlist', operation: 'getMany', returnAll: true },
		],
		[
			'a follow',
			'POST',
			'/v2/alerts/follow/',
			{ resource: 'watchlist', operation: 'follow', nif: 'B64717838' },
		],
		[
			'an order',
			'POST',
			'/v2/documents/order/',
			{ resource: 'document', operation: 'order', nif: 'B64717838', year: 2023 },
		],
	] as Array<[string, string, string, INodeParameters]>)(
		'is not followed by %s, which fails saying so and sends nothing to the target',
		async (_call, method, path, parameters) => {
			redirect(path, 307, origin, method);
			const result = await runLibreBor(sim(), parameters);
			expect(result.error?.message).toContain('redirect (307), which the node does not follow');
			expect(reachedTargets()).toEqual([]);
			expect(sim().state.ordersReceived).toBe(0);
		},
	);

	it('is not followed by the trigger', async () => {
		redirect('/v2/alerts/', 302, origin);
		await expect(triggerSession(sim()).poll()).rejects.toThrow('redirect (302)');
		expect(reachedTargets()).toEqual([]);
	});
});

describe('A download link', () => {
	it('is not followed when a hop redirects it down to plain http://, which receives nothing', async () => {
		const ordered = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'order',
			nif: 'B64717838',
			year: 2023,
		});
		const documentId = String(ordered.items[0].json.document_id);
		const hop = sim().injectFault({
			origin: 'download',
			method: 'GET',
			path: /^\//,
			status: 302,
			headers: { location: `${plainHttpOrigin}/file.pdf` },
			body: '',
		});
		const result = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'download',
			documentId,
			binaryPropertyName: 'data',
		});
		expect(hop.hits).toBe(1);
		expect(result.error?.message).toBe(
			`Refused to download document ${documentId} over http://: only HTTPS download links are followed`,
		);
		expect(plainHttpSeen).toEqual([]);
	});
});
