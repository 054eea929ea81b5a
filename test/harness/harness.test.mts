import { existsSync } from 'node:fs';
import { NodeOperationError } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LibreBorApi } from '../../credentials/LibreBorApi.credentials.ts';
import type { HttpsTestServer } from '../../tools/engine/httpsTestServer.mts';
import { startHttpsTestServer } from '../../tools/engine/httpsTestServer.mts';
import {
	binaryFilePath,
	createPollSession,
	readBinary,
	readBinaryStream,
	runAction,
	runPoll,
	testCredential,
} from '../../tools/engine/index.mts';
import type { NumberSource } from './selfTestNodes.mts';
import {
	AuthenticatedGetTestNode,
	AuthenticatedPollTestTrigger,
	HarnessTokenApi,
	newNumbersTestTrigger,
	RejectItemTestNode,
	UppercaseTestNode,
} from './selfTestNodes.mts';

const numbersOf = (items: Awaited<ReturnType<typeof runPoll>>['items']) =>
	items?.[0].map((item) => item.json.number) ?? null;

const newNumbersSession = (
	source: NumberSource,
	cursorStorage?: 'static-data' | 'durable-cursor',
) => {
	const NewNumbers = newNumbersTestTrigger(source);
	return createPollSession({ nodeType: new NewNumbers(), parameters: {}, cursorStorage });
};

describe('runAction', () => {
	it('runs an action node behind a test input node through WorkflowExecute', async () => {
		const result = await runAction({
			nodeType: new UppercaseTestNode(),
			parameters: { field: 'name' },
			items: [{ name: 'ada' }, { name: 'bob' }],
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: { name: 'ADA' }, pairedItem: { item: 0 } },
			{ json: { name: 'BOB' }, pairedItem: { item: 1 } },
		]);
		expect(Object.keys(result.runData)).toEqual(['Test Input', 'Uppercase']);
	});

	it('stores binary input on disk and reads it back as a buffer and a stream', async () => {
		const content = 'annual accounts';
		const result = await runAction({
			nodeType: new UppercaseTestNode(),
			parameters: {},
			items: [
				{
					json: { name: 'file' },
					binary: {
						data: {
							data: Buffer.from(content).toString('base64'),
							mimeType: 'application/pdf',
							fileName: 'accounts.pdf',
						},
					},
				},
			],
		});

		const [item] = result.items;
		expect(item.binary?.data.id).toMatch(/^filesystem-v2:/);
		expect(existsSync(binaryFilePath(item))).toBe(true);
		expect((await readBinary(item)).toString()).toBe(content);
		const chunks: Buffer[] = [];
		for await (const chunk of await readBinaryStream(item)) chunks.push(chunk as Buffer);
		expect(Buffer.concat(chunks).toString()).toBe(content);
	});

	it("reports the node's error when an item fails", async () => {
		const result = await runAction({
			nodeType: new RejectItemTestNode(),
			parameters: { reject: 'b' },
			items: [{ name: 'a' }, { name: 'b' }],
		});

		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe('Item "b" is rejected');
		expect(result.engineError?.message).toBe('Item "b" is rejected');
		expect(result.items).toEqual([]);
	});

	it('keeps the other items, each with its pairedItem, when continueOnFail is set', async () => {
		const result = await runAction({
			nodeType: new RejectItemTestNode(),
			parameters: { reject: 'b' },
			items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: { name: 'a', accepted: true }, pairedItem: { item: 0 } },
			{ json: { error: 'Item "b" is rejected' }, pairedItem: { item: 1 } },
			{ json: { name: 'c', accepted: true }, pairedItem: { item: 2 } },
		]);
	});
});

describe('polling with the default static-data storage', () => {
	it('emits only new numbers across polls and across a restart', async () => {
		const source: NumberSource = { numbers: [1, 2, 3] };
		const session = newNumbersSession(source);

		expect(await session.poll()).toBeNull();
		source.numbers.push(4, 5);
		expect(numbersOf(await session.poll())).toEqual([4, 5]);
		expect(session.savedNodeStaticData).toEqual({ highest: 5 });
		expect(await session.poll()).toBeNull();

		session.restart();
		source.numbers.push(6);
		expect(numbersOf(await session.poll())).toEqual([6]);
	});

	it('saves nothing when a poll returns nothing, so a restart forgets that poll', async () => {
		const source: NumberSource = { numbers: [1, 2] };
		const session = newNumbersSession(source);

		expect(await session.poll()).toBeNull();
		expect(session.liveStaticData).toEqual({ 'node:New Numbers': { highest: 2 } });
		expect(session.savedStaticData).toEqual({});

		source.numbers.push(3);
		session.restart();
		expect(await session.poll()).toBeNull();
		expect(session.liveStaticData).toEqual({ 'node:New Numbers': { highest: 3 } });
	});

	it('keeps the in-memory change of a failing poll for the next polls', async () => {
		const source: NumberSource = { numbers: [1] };
		const session = newNumbersSession(source);
		await session.poll();
		source.numbers.push(2);
		source.failure = 'source unavailable';

		await expect(session.poll()).rejects.toThrow('source unavailable');
		expect(session.savedStaticData).toEqual({});

		source.failure = undefined;
		source.numbers.push(3);
		expect(numbersOf(await session.poll())).toEqual([3]);
		expect(session.savedNodeStaticData).toEqual({ highest: 3 });
	});

	it('drops the workflow when the first poll of an activation fails', async () => {
		const source: NumberSource = { numbers: [1], failure: 'not reachable' };
		const session = newNumbersSession(source);

		await expect(session.poll()).rejects.toThrow('not reachable');
		expect(session.isActivated).toBe(false);
	});

	it('runs a manual poll without touching the saved state or the next production poll', async () => {
		const source: NumberSource = { numbers: [7] };
		const session = newNumbersSession(source);
		await session.poll();
		source.numbers.push(8);
		await session.poll();
		const saved = session.savedStaticData;

		expect(numbersOf(await session.poll('manual'))).toEqual([8]);
		expect(session.savedStaticData).toEqual(saved);
		source.numbers.push(9);
		expect(numbersOf(await session.poll())).toEqual([9]);
	});

	it('runs one poll from saved static data with runPoll', async () => {
		const NewNumbers = newNumbersTestTrigger({ numbers: [1, 2, 3, 4, 5] });
		const staticData = { 'node:New Numbers': { highest: 3 } };

		const tick = await runPoll({ nodeType: new NewNumbers(), parameters: {}, staticData });
		expect(numbersOf(tick.items)).toEqual([4, 5]);
		expect(tick.staticData).toEqual({ 'node:New Numbers': { highest: 5 } });

		const manual = await runPoll({
			nodeType: new NewNumbers(),
			parameters: {},
			staticData,
			mode: 'manual',
		});
		expect(numbersOf(manual.items)).toEqual([5]);
		expect(manual.staticData).toEqual(staticData);
	});
});

describe('polling with durable cursors', () => {
	it('commits an empty poll only after the activation poll', async () => {
		const source: NumberSource = { numbers: [1] };
		const session = newNumbersSession(source, 'durable-cursor');

		expect(await session.poll()).toBeNull();
		expect(session.savedStaticData).toEqual({});
		expect(await session.poll()).toBeNull();
		expect(session.savedNodeStaticData).toEqual({ highest: 1 });
	});

	it('discards the change of a failing poll', async () => {
		const source: NumberSource = { numbers: [1] };
		const session = newNumbersSession(source, 'durable-cursor');
		await session.poll();
		await session.poll();
		source.numbers.push(2);
		source.failure = 'source unavailable';

		await expect(session.poll()).rejects.toThrow('source unavailable');

		source.failure = undefined;
		source.numbers.push(3);
		expect(numbersOf(await session.poll())).toEqual([2, 3]);
		expect(session.savedNodeStaticData).toEqual({ highest: 3 });
	});
});

describe('HTTPS through n8n-core request helpers', () => {
	const user = { username: 'ana', password: 's3cret' };
	let server: HttpsTestServer;
	const libreBorCredentials = () => ({
		libreBorApi: { environment: 'custom', baseUrl: `${server.origin}/v2`, ...user },
	});

	beforeAll(async () => {
		expect(
			process.env.NODE_EXTRA_CA_CERTS,
			'run with NODE_EXTRA_CA_CERTS=tools/simulator/tls/ca.pem',
		).toBeTruthy();
		const expected = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
		server = await startHttpsTestServer((request, response) => {
			const allowed =
				request.headers.authorization === expected ||
				request.headers['x-test-token'] === 'Token abc';
			response.writeHead(allowed ? 200 : 401, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify(allowed ? { ok: true, path: request.url } : { error: 'unauthorized' }),
			);
		});
	});

	afterAll(async () => await server.close());

	it('applies the libreBorApi credential: the server sees HTTP Basic', async () => {
		const result = await runAction({
			nodeType: new AuthenticatedGetTestNode(),
			parameters: { url: `${server.origin}/v2/ping` },
			credentials: libreBorCredentials(),
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: { ok: true, path: '/v2/ping' }, pairedItem: { item: 0 } },
		]);
		const seen = server.requests.find((request) => request.url === '/v2/ping');
		expect(seen?.headers.authorization).toBe(
			`Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`,
		);
	});

	it('resolves the expressions of a generic authenticate', async () => {
		const result = await runAction({
			nodeType: new AuthenticatedGetTestNode(),
			parameters: { url: `${server.origin}/token`, credentialType: 'harnessTokenApi' },
			credentials: { harnessTokenApi: { token: 'abc' } },
			credentialTypes: [new LibreBorApi(), new HarnessTokenApi()],
		});

		expect(result.error).toBeUndefined();
		expect(
			server.requests.find((request) => request.url === '/token')?.headers['x-test-token'],
		).toBe('Token abc');
	});

	it('authenticates a poll through PollContext', async () => {
		const { items } = await runPoll({
			nodeType: new AuthenticatedPollTestTrigger(),
			parameters: { url: `${server.origin}/v2/poll` },
			credentials: libreBorCredentials(),
		});

		expect(items).toEqual([[{ json: { ok: true, path: '/v2/poll' } }]]);
	});

	it("does not send a request the credential's authenticate refuses", async () => {
		const result = await runAction({
			nodeType: new AuthenticatedGetTestNode(),
			parameters: { url: `${server.origin}/elsewhere` },
			credentials: libreBorCredentials(),
		});

		expect(result.error).toBeDefined();
		expect(server.requests.some((request) => request.url === '/elsewhere')).toBe(false);
	});

	it("tests a credential with its own test request, like n8n's credential dialog", async () => {
		const ok = await testCredential(new LibreBorApi(), libreBorCredentials().libreBorApi);
		expect(ok).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests.at(-1)?.url).toBe('/v2/alerts/following/');

		const refused = await testCredential(new LibreBorApi(), {
			...libreBorCredentials().libreBorApi,
			password: 'wrong',
		});
		expect(refused.status).toBe('Error');
		expect(refused.message).toMatch(/refused the API user or password/);
	});
});
