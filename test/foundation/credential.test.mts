import { existsSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { LibreBorApi } from '../../credentials/LibreBorApi.credentials.ts';
import { requestTarget, resolveBaseUrl } from '../../nodes/LibreBor/transport/baseUrl.ts';
import { runAction, testCredential } from '../../tools/engine/index.mts';
import { repoRoot } from '../../tools/repoPaths.mts';
import {
	AuthenticatedGetTestNode,
	declarativeGetTestNode,
	LegacyGetTestNode,
} from '../harness/selfTestNodes.mts';
import { credentialsFor, runLibreBor, useSimulator, type Simulator } from '../support/libreBor.mts';

const sim = useSimulator();
const test = (overrides: IDataObject = {}) =>
	testCredential(new LibreBorApi(), credentialsFor(sim(), overrides).libreBorApi);

const basicOf = (sim: Simulator) =>
	`Basic ${Buffer.from(`${sim.credentials.username}:${sim.credentials.password}`).toString('base64')}`;

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

	it('tolerates a custom base URL pasted with a trailing non-breaking space', async () => {
		expect(await test({ baseUrl: `${sim().baseUrl}\u00a0` })).toMatchObject({ status: 'OK' });
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

	it('refuses an http:// custom URL on every call, before any request, saying to fix it', async () => {
		const result = await runLibreBor(
			sim(),
			{ resource: 'alert', operation: 'getMany' },
			{ credentials: { baseUrl: sim().baseUrl.replace('https://', 'http://') } },
		);
		expect(result.error?.message).toMatch(/must use https:\/\//);
		expect(result.error?.description).toBe('Open the LibreBOR credential and fix the base URL.');
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
		expect(resolveBaseUrl({ environment: 'custom', baseUrl: 'https://x.example/v10' })).toEqual({
			baseUrl: 'https://x.example/v10',
		});
		for (const bad of [
			'https://proxy.example.com/',
			'https://x.example/v2/alerts',
			'ftp://x/v2',
			'https://u:p@x.example/v2',
			'https://u@x.example/v2',
			'https://:p@x.example/v2',
			'not a url',
		]) {
			expect(resolveBaseUrl({ environment: 'custom', baseUrl: bad })).toHaveProperty('problem');
		}
		// A URL that does not parse is named without what may be a user name and password.
		for (const [typed, shown] of [
			['https://me:s3cret@x y/v2', 'https://…@x y/v2'],
			['https://me:s3/cr@et@x y/v2', 'https://…@x y/v2'],
			['https://me:s3\ncret@x y/v2', 'https://…@x y/v2'],
			['//me:s3cret@x y/v2', '…@x y/v2'],
		])
			expect(resolveBaseUrl({ environment: 'custom', baseUrl: typed })).toEqual({
				problem: `The custom base URL "${shown}" is not a valid URL. Use the form https://host/v2.`,
			});
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

	it.each([
		['another host, at the API path', (s: Simulator) => `${s.downloadOrigin}/v2/alerts/`],
		[
			'the API host over plain http://',
			(s: Simulator) => `${s.baseUrl.replace('https:', 'http:')}/alerts/`,
		],
		['a path that only starts like the base path', (s: Simulator) => `${s.baseUrl}evil/alerts/`],
		['a protocol-relative address', (s: Simulator) => `${s.baseUrl.replace('https:', '')}/alerts/`],
		['an address without a host', () => 'alerts/'],
	])('refuses to sign a request to %s, and sends nothing', async (_target, url) => {
		const result = await runAction({
			nodeType: new AuthenticatedGetTestNode(),
			parameters: { url: url(sim()) },
			credentials: credentialsFor(sim()),
		});
		expect(result.error?.message).toMatch(/only sent over HTTPS to/);
		expect(sim().requests).toEqual([]);
	});

	it('signs nothing for a request without a URL, and takes a bare path as below the base URL', () => {
		const base = 'https://api.example.test/v1';
		expect(requestTarget({}, base)).toBeUndefined();
		expect(requestTarget({ url: '/alerts' }, base)).toBe(`${base}/alerts`);
		expect(requestTarget({ url: '//other.test/x' }, base)).toBe('//other.test/x');
	});

	it('signs a request to the base URL itself', async () => {
		await runAction({
			nodeType: new AuthenticatedGetTestNode(),
			parameters: { url: sim().baseUrl },
			credentials: credentialsFor(sim()),
		});
		expect(sim().requests.map((request) => [request.path, request.headers.authorization])).toEqual([
			['/v2', basicOf(sim())],
		]);
	});

	it.each([
		['the API base URL', (s: Simulator) => s.baseUrl, '/alerts/'],
		['the API host', (s: Simulator) => new URL(s.baseUrl).origin, 'v2/alerts/'],
		[
			'the API host, a path with its slash',
			(s: Simulator) => new URL(s.baseUrl).origin,
			'/v2/alerts/',
		],
	])(
		'signs the paths a declarative node sends below %s as its baseURL',
		async (_base, baseURL, path) => {
			const result = await runAction({
				nodeType: declarativeGetTestNode(baseURL(sim())),
				parameters: { path },
				credentials: credentialsFor(sim()),
			});
			expect(result.error).toBeUndefined();
			expect(sim().requestsTo('GET', '/v2/alerts/')[0].headers.authorization).toBe(basicOf(sim()));
		},
	);

	it.each([
		['an absolute URL', (s: Simulator) => `${s.downloadOrigin}/files/next`],
		['a protocol-relative URL', (s: Simulator) => `//${new URL(s.downloadOrigin).host}/files/next`],
	])(
		'refuses %s to another host that a declarative node sends with the API baseURL',
		async (_kind, url) => {
			// A `next` link from an answer, or a URL from an expression: n8n sends an absolute URL as it
			// is, whatever the baseURL, so that URL is the one to check.
			const result = await runAction({
				nodeType: declarativeGetTestNode(sim().baseUrl),
				parameters: { path: url(sim()) },
				credentials: credentialsFor(sim()),
			});
			expect(result.error?.message).toMatch(/only sent over HTTPS to/);
			expect(sim().requests).toEqual([]);
			expect(sim().requestsTo('GET', '/files/next', 'download')).toEqual([]);
		},
	);

	it('refuses a declarative node whose baseURL is another host, and sends nothing', async () => {
		const result = await runAction({
			nodeType: declarativeGetTestNode(sim().downloadOrigin),
			parameters: { path: '/v2/alerts/' },
			credentials: credentialsFor(sim()),
		});
		expect(result.error?.message).toMatch(/only sent over HTTPS to/);
		expect(sim().requests).toEqual([]);
	});

	it("keeps the password off another host when n8n's legacy helper follows a redirect", async () => {
		sim().injectFault({
			path: '/v2/alerts/',
			status: 302,
			headers: { location: `${sim().downloadOrigin}/files/moved` },
			body: '',
		});
		await runAction({
			nodeType: new LegacyGetTestNode(),
			parameters: { url: `${sim().baseUrl}/alerts/` },
			credentials: credentialsFor(sim()),
		});
		expect(sim().requestsTo('GET', '/v2/alerts/')[0].headers.authorization).toBe(basicOf(sim()));
		const hop = sim().requestsTo('GET', '/files/moved', 'download');
		expect(hop).toHaveLength(1);
		expect(hop[0].headers.authorization).toBeUndefined();
	});
});

// The dialog as n8n's editor shows it: which fields appear for the chosen environment
// (NodeHelpers.displayParameter evaluates displayOptions as the editor does), which are masked, and
// which the editor flags as missing (NodeHelpers.getParameterIssues, as for a node's required fields).
// Read in each test, never once at load: a mutation test switches a mutant on before each test.
const properties = () => new LibreBorApi().properties;
// A credential has no node of its own; the issue check reads only a node's type version.
const node = { typeVersion: 1 } as INode;

/** The values of the dialog, as the editor fills a credential's fields with their defaults. */
const newDialog = (values: INodeParameters = {}) =>
	NodeHelpers.getNodeParameters(properties(), values, true, false, null, null) ?? {};

/** The fields the dialog shows for these values, after the credential type's defaults. */
function shown(values: INodeParameters) {
	const filled = newDialog(values);
	return properties().filter((field) => NodeHelpers.displayParameter(filled, field, null, null));
}

describe('LibreBOR API credential dialog', () => {
	it('shows its icon in light and dark themes, from files the package ships', () => {
		const { icon } = new LibreBorApi();
		const files = Object.values(icon as Record<string, string>).map((file) =>
			path.resolve(repoRoot, 'credentials', file.replace(/^file:/, '')),
		);
		expect(files.map((file) => path.basename(file))).toEqual(['librebor.svg', 'librebor.dark.svg']);
		expect(files.filter((file) => !existsSync(file))).toEqual([]);
	});

	// Each field with the input the editor shows for it: a list of options or a text.
	const apiFields = ['Environment: options', 'API User: string', 'API Password: string'];

	it.each([
		['production', apiFields],
		['sandbox', apiFields],
		[
			'custom',
			['Environment: options', 'Base URL: string', 'API User: string', 'API Password: string'],
		],
	])('shows where to get the user and password, and for %s: %j', (environment, fields) => {
		const [notice, ...rest] = shown({ environment });
		expect(notice).toMatchObject({
			type: 'notice',
			displayName: expect.stringMatching(/API > Credentials/),
		});
		expect(rest.map((field) => `${field.displayName}: ${field.type}`)).toEqual(fields);
	});

	it('offers production, selected in a new credential, and sandbox, each naming the address its requests go to, and a custom URL', () => {
		const environment = properties().find((field) => field.name === 'environment');
		const options = (environment?.options ?? []) as Array<{
			name: string;
			value: string;
			description: string;
		}>;
		expect(options.map((option) => option.name)).toEqual(['Production', 'Sandbox', 'Custom']);
		const selected = options.filter((option) => option.value === newDialog().environment);
		expect(selected.map((option) => option.name)).toEqual(['Production']);
		for (const option of options.slice(0, 2)) {
			const resolved = resolveBaseUrl({ environment: option.value }) as { baseUrl: string };
			expect(option.description).toContain(resolved.baseUrl);
		}
		expect(resolveBaseUrl({ environment: options[2].value })).toHaveProperty('problem');
	});

	it('opens a new custom credential empty, its Base URL showing an address it accepts, the password masked, the user and password flagged as missing', () => {
		const values = newDialog({ environment: 'custom' });
		const fields = shown(values);
		expect([values.baseUrl, values.username, values.password]).toEqual(['', '', '']);
		const example = fields.find((field) => field.name === 'baseUrl')?.placeholder ?? '';
		expect(resolveBaseUrl({ environment: 'custom', baseUrl: example })).toHaveProperty('baseUrl');
		expect(
			fields.filter((field) => field.typeOptions?.password).map((field) => field.name),
		).toEqual(['password']);
		const missing = fields.flatMap((field) =>
			Object.values(NodeHelpers.getParameterIssues(field, values, '', node, null).parameters ?? {}),
		);
		expect(missing.flat()).toEqual([
			'Parameter "API User" is required.',
			'Parameter "API Password" is required.',
		]);
	});
});
