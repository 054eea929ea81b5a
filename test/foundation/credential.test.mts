import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { LibreBorApi } from '../../credentials/LibreBorApi.credentials.ts';
import { resolveBaseUrl } from '../../nodes/LibreBor/transport/baseUrl.ts';
import { runAction, testCredential } from '../../tools/engine/index.mts';
import { AuthenticatedGetTestNode } from '../harness/selfTestNodes.mts';
import { credentialsFor, runLibreBor, useSimulator } from '../support/libreBor.mts';

const sim = useSimulator();
const test = (overrides: IDataObject = {}) =>
	testCredential(new LibreBorApi(), credentialsFor(sim(), overrides).libreBorApi);

describe('LibreBOR API credential', () => {
	it('passes the credential test with the right user and password, with a read-only call', async () => {
		expect(await test()).toMatchObject({ status: 'OK' });
		expect(sim().requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /v2/alerts/following/',
		]);
	});

	it('tolerates a trailing slash on a custom base URL', async () => {
		expect(await test({ baseUrl: `${sim().baseUrl}/` })).toMatchObject({ status: 'OK' });
	});

	it('fails the credential test with a wrong password, without showing it', async () => {
		const result = await test({ password: 'wrong-password-123' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the API user or password.*API > Credentials/);
		expect(result.message).not.toContain('wrong-password-123');
	});

	it.each([
		[403, /has no access to alerts and documents: they need an API subscription/],
		[404, /Nothing answers at this base URL\. It must end in the version segment/],
	])('fails the credential test on a %d with what to do about it', async (status, advice) => {
		sim().injectFault({ path: '/v2/alerts/following/', status, body: '{"detail":"no"}' });
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(advice);
	});

	it('refuses an http:// custom URL in the credential test, saying why, and sends nothing', async () => {
		const result = await test({ baseUrl: sim().baseUrl.replace('https://', 'http://') });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/must use https:\/\/.*must not travel in clear/);
		expect(sim().requests).toEqual([]);
	});

	it('refuses an http:// custom URL on every call, before any request', async () => {
		const result = await runLibreBor(
			sim(),
			{ resource: 'alert', operation: 'getMany' },
			{ credentials: { baseUrl: sim().baseUrl.replace('https://', 'http://') } },
		);
		expect(result.error?.message).toMatch(/must use https:\/\//);
		expect(sim().requests).toEqual([]);
	});

	it('resolves production, sandbox and custom base URLs', () => {
		expect(resolveBaseUrl({ environment: 'production' })).toEqual({
			baseUrl: 'https://api.librebor.me/v2',
		});
		expect(resolveBaseUrl({})).toEqual({ baseUrl: 'https://api.librebor.me/v2' });
		expect(resolveBaseUrl({ environment: 'sandbox' })).toEqual({
			baseUrl: 'https://sandbox-api.librebor.me/v2',
		});
		expect(
			resolveBaseUrl({
				environment: 'custom',
				baseUrl: ' https://proxy.example.com/librebor/v2// ',
			}),
		).toEqual({
			baseUrl: 'https://proxy.example.com/librebor/v2',
		});
		for (const bad of [
			'https://proxy.example.com/',
			'ftp://x/v2',
			'https://u:p@x.example/v2',
			'not a url',
		]) {
			expect(resolveBaseUrl({ environment: 'custom', baseUrl: bad })).toHaveProperty('problem');
		}
	});

	it('never sends the credentials to another host, even through the engine', async () => {
		// Any node of the workflow may use the credential, for any URL: n8n asks it to sign the request.
		const credentials = credentialsFor(sim());
		const elsewhere = await runAction({
			nodeType: new AuthenticatedGetTestNode(),
			parameters: { url: `${sim().downloadOrigin}/files/anything` },
			credentials,
		});
		expect(elsewhere.error?.message).toMatch(/only sent over HTTPS to/);
		expect(sim().requests).toEqual([]);
		expect(JSON.stringify(elsewhere.run)).not.toContain(credentials.libreBorApi.password);

		const apiHost = await runAction({
			nodeType: new AuthenticatedGetTestNode(),
			parameters: { url: `${sim().baseUrl}/alerts/` },
			credentials,
		});
		expect(apiHost.error).toBeUndefined();
		const basic = Buffer.from(
			`${credentials.libreBorApi.username}:${credentials.libreBorApi.password}`,
		).toString('base64');
		expect(sim().requestsTo('GET', '/v2/alerts/')[0].headers.authorization).toBe(`Basic ${basic}`);
	});
});
