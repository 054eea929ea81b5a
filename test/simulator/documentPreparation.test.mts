// Documents prepared in the background, as a client polling GET /documents/<id>/ sees them, on a
// virtual clock: a fixed time, a seeded range, a function of the order, and a pool of workers.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';

import { ManualClock, startSimulator, type Simulator } from '../../tools/simulator/index.mts';
import { callApi } from './apiCall.mts';

const SECOND = 1000;
const clock = new ManualClock(Date.UTC(2025, 0, 6, 9));
let sim: Simulator;

async function call(method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
	const answer = await callApi(sim, method, path, form);
	return { status: answer.status, json: JSON.parse(answer.text) as any };
}

async function orderDocuments(count: number, year = '2023'): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const form = { nif: 'A86212420', type: 'accounts', year };
		ids.push((await call('POST', '/documents/order/', form)).json.document_id);
	}
	return ids;
}

const statusOf = async (id: string) =>
	(await call('GET', `/documents/${id}/`)).json.document.status;
const statusesOf = (ids: string[]) => Promise.all(ids.map(statusOf));

/** The seconds after now at which each document leaves `processing` (the clock is moved along). */
async function secondsUntilReady(ids: string[], horizonSeconds: number): Promise<number[]> {
	const startedAt = clock.now();
	const readyAt: number[] = [];
	for (let second = 0; second <= horizonSeconds; second++) {
		clock.set(startedAt + second * SECOND);
		const statuses = await statusesOf(ids);
		statuses.forEach((status, i) => {
			if (status !== 'processing') readyAt[i] ??= second;
		});
	}
	return readyAt;
}

async function settings(json: unknown) {
	const response = await request(`${sim.baseUrl.replace(/\/v2$/, '')}/__sim/settings`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(json),
	});
	return { status: response.statusCode, json: (await response.body.json()) as any };
}

beforeAll(async () => {
	sim = await startSimulator({ clock });
});

afterEach(() => sim.reset());

afterAll(async () => await sim.close());

describe('preparation time', () => {
	it('keeps a document processing for a fixed time after its order, and 0 releases it', async () => {
		sim.state.documentProcessingMs = 60 * SECOND;
		const [id] = await orderDocuments(1);
		clock.advance(60 * SECOND - 1);
		expect(await statusOf(id)).toBe('processing');
		clock.advance(1);
		expect((await call('GET', `/documents/${id}/`)).json.document).toMatchObject({
			status: 'completed',
			download_link: expect.stringMatching(/\/files\//),
		});

		sim.state.documentProcessingMs = 3_600 * SECOND;
		const [later] = await orderDocuments(1);
		expect(await statusOf(later)).toBe('processing');
		sim.state.documentProcessingMs = 0;
		expect(await statusOf(later)).toBe('completed');
	});

	it('draws a time per document from a seeded range, the same again for the same seed', async () => {
		const range = { minMs: 2 * SECOND, maxMs: 9 * SECOND, seed: 7 };
		expect((await settings({ documentProcessingMs: range })).status).toBe(200);
		const first = await secondsUntilReady(await orderDocuments(6), 10);
		expect(first.every((seconds) => seconds >= 2 && seconds <= 9)).toBe(true);
		expect(new Set(first).size).toBeGreaterThan(2);

		sim.state.documentProcessingMs = range;
		expect(await secondsUntilReady(await orderDocuments(6), 10)).toEqual(first);
		sim.state.documentProcessingMs = { ...range, seed: 8 };
		expect(await secondsUntilReady(await orderDocuments(6), 10)).not.toEqual(first);
	});

	it('takes the time a function of the order gives', async () => {
		sim.state.documentProcessingMs = (document) => (document.year === 2023 ? 3 : 8) * SECOND;
		const ids = [...(await orderDocuments(1, '2023')), ...(await orderDocuments(1, '2020'))];
		expect(await secondsUntilReady(ids, 9)).toEqual([3, 8]);
	});

	it('refuses an impossible range or pool through the control API', async () => {
		const range = await settings({ documentProcessingMs: { minMs: 5, maxMs: 1 } });
		expect(range.status).toBe(400);
		expect(range.json.detail).toMatch(/documentProcessingMs: .*minMs <= maxMs/);
		const pool = await settings({ documentWorkers: 0 });
		expect(pool.status).toBe(400);
		expect(pool.json.detail).toBe('documentWorkers: There must be at least one worker');
	});
});

describe('workers', () => {
	it('prepares one document at a time with one worker, first ordered first', async () => {
		await settings({ documentProcessingMs: 10 * SECOND, documentWorkers: 1 });
		expect(await secondsUntilReady(await orderDocuments(3), 30)).toEqual([10, 20, 30]);
	});

	it('prepares as many at once as there are workers', async () => {
		sim.state.documentProcessingMs = 10 * SECOND;
		sim.state.documentWorkers = 2;
		expect(await secondsUntilReady(await orderDocuments(3), 20)).toEqual([10, 10, 20]);
	});

	it('starts a document ordered while a worker is free at once', async () => {
		sim.state.documentProcessingMs = 10 * SECOND;
		sim.state.documentWorkers = 1;
		const [first] = await orderDocuments(1);
		clock.advance(15 * SECOND);
		const [second] = await orderDocuments(1);
		expect(await statusOf(first)).toBe('completed');
		expect(await secondsUntilReady([second], 10)).toEqual([10]);
	});

	it('frees the worker of a document finished by hand', async () => {
		sim.state.documentProcessingMs = 10 * SECOND;
		sim.state.documentWorkers = 1;
		const [first, second] = await orderDocuments(2);
		clock.advance(2 * SECOND);
		sim.state.finishDocument(first);
		expect(await statusOf(first)).toBe('completed');
		expect(await secondsUntilReady([second], 10)).toEqual([10]);
	});

	it('gives the turn of a waiting document finished by hand to the next one', async () => {
		sim.state.documentProcessingMs = 10 * SECOND;
		sim.state.documentWorkers = 1;
		const [first, waiting, last] = await orderDocuments(3);
		clock.advance(2 * SECOND);
		sim.state.finishDocument(waiting);
		expect(await statusOf(waiting)).toBe('completed');
		expect(await secondsUntilReady([first, last], 18)).toEqual([8, 18]);
	});
});

it('rate-limits the status endpoint like every API endpoint', async () => {
	sim.state.documentProcessingMs = 60 * SECOND;
	const [id] = await orderDocuments(1);
	sim.traffic.rateLimit = { shape: 'sliding-log-drf', requests: 2, windowMs: 60 * SECOND };
	const polls = [];
	for (let i = 0; i < 3; i++) polls.push((await call('GET', `/documents/${id}/`)).status);
	expect(polls).toEqual([200, 200, 429]);
});
