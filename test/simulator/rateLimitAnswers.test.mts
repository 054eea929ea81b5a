// The rate-limit shapes as a client meets them: over HTTPS, set through the control API, on a
// virtual clock, so that hourly limits take no real time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';

import { ManualClock, startSimulator, type Simulator } from '../../tools/simulator/index.mts';
import { callApi } from './apiCall.mts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const clock = new ManualClock(Date.UTC(2025, 0, 6, 9));
let sim: Simulator;

const call = async (method: 'GET' | 'POST', path: string, form?: Record<string, string>) =>
	await callApi(sim, method, path, form);

async function control(method: 'GET' | 'POST' | 'DELETE', path: string, json?: unknown) {
	const response = await request(`${sim.baseUrl.replace(/\/v2$/, '')}/__sim/${path}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: json === undefined ? undefined : JSON.stringify(json),
	});
	return { status: response.statusCode, json: (await response.body.json()) as any };
}

const toNextHour = () => clock.set(Math.ceil((clock.now() + 1) / HOUR) * HOUR);

/** Resolves once `condition` holds, checking every few milliseconds of real time. */
async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

beforeAll(async () => {
	sim = await startSimulator({ clock });
});

afterEach(() => sim.reset());

afterAll(async () => await sim.close());

describe('each shape, as the client sees it', () => {
	it.each([
		['token-bucket', [200, 200, 429], '30', '{"detail":"Request was throttled."}'],
		[
			'sliding-log-drf',
			[200, 200, 429],
			'60',
			'{"detail":"Request was throttled. Expected available in 60 seconds."}',
		],
		['sliding-log-tastypie', [200, 200, 429], undefined, ''],
		['fixed-window', [200, 200, 429], '60', '{"message":"API rate limit exceeded"}'],
		['leaky-bucket-nginx', [200, 503, 503], undefined, expect.stringContaining('<center>nginx')],
	] as Array<[string, number[], string | undefined, unknown]>)(
		'%s, 2 a minute: statuses %j, Retry-After %s',
		async (shape, statuses, retryAfter, body) => {
			toNextHour();
			const limit = { shape, requests: 2, windowMs: MINUTE };
			expect(
				(await control('POST', 'settings', { rateLimit: limit })).json.traffic.rateLimit,
			).toEqual({ ...limit, burst: 0, nodelay: false });
			const replies = [];
			for (let i = 0; i < 3; i++) replies.push(await call('GET', '/alerts/'));
			expect(replies.map((reply) => reply.status)).toEqual(statuses);
			const refused = replies[2];
			expect(refused.headers['retry-after']).toBe(retryAfter);
			expect(refused.text).toEqual(body);

			const refusals = statuses.filter((status) => status !== 200);
			expect((await control('GET', 'traffic')).json).toMatchObject({
				admitted: 3 - refusals.length,
				throttled: refusals.length,
				throttledByStatus: { [refusals[0]]: refusals.length },
			});
		},
	);

	it('counts for tastypie only the requests answered without an error', async () => {
		sim.traffic.rateLimit = { shape: 'sliding-log-tastypie', requests: 2, windowMs: HOUR };
		const follow = (nif: string) => call('POST', '/alerts/follow/', { nif, type: 'company' });
		for (let i = 0; i < 3; i++) expect((await follow('B64717839')).status).toBe(400);
		expect((await follow('B64717838')).status).toBe(200);
		expect((await follow('A86212420')).status).toBe(200);
		expect((await follow('J99216582')).status).toBe(429);
	});

	it("holds requests in nginx's burst on the simulator's clock, one per interval", async () => {
		sim.traffic.rateLimit = {
			shape: 'leaky-bucket-nginx',
			requests: 1,
			windowMs: 1000,
			burst: 2,
		};
		let answered = 0;
		const replies = Array.from({ length: 3 }, () =>
			call('GET', '/alerts/').then((reply) => {
				answered++;
				return reply.status;
			}),
		);
		await until(() => answered === 1 && clock.sleeping === 2);
		clock.advance(999);
		await new Promise((resolve) => setTimeout(resolve, 30));
		expect(answered).toBe(1);
		clock.advance(1);
		await until(() => answered === 2);
		clock.advance(1000);
		expect(await Promise.all(replies)).toEqual([200, 200, 200]);
		expect(sim.traffic.summary()).toMatchObject({ admitted: 3, delayed: 2 });
	});
});

describe('settings and the floor through the control API', () => {
	it('keeps rateLimitPerSecond a token bucket of that many a second, and null lifts the limit', async () => {
		const set = await control('POST', 'settings', { rateLimitPerSecond: 3 });
		expect(set.json.traffic).toMatchObject({
			rateLimitPerSecond: 3,
			rateLimit: { shape: 'token-bucket', requests: 3, windowMs: 1000 },
		});
		const statuses = [];
		for (let i = 0; i < 4; i++) statuses.push((await call('GET', '/alerts/')).status);
		expect(statuses).toEqual([200, 200, 200, 429]);
		await control('POST', 'settings', { rateLimitPerSecond: null });
		expect((await call('GET', '/alerts/')).status).toBe(200);
		expect(sim.traffic.summary()).toMatchObject({ rateLimit: null, rateLimitPerSecond: null });
	});

	it('refuses a limit it cannot apply, saying what is wrong', async () => {
		const bad: Array<[unknown, string]> = [
			[{ shape: 'leaky', requests: 1, windowMs: 1000 }, 'Unknown rate limit shape'],
			[{ requests: 0, windowMs: 1000 }, 'requests must be a number above 0'],
			[{ requests: 5, windowMs: 1.5 }, 'windowMs must be a whole number'],
			[{ shape: 'sliding-log-tastypie', requests: 5, windowMs: 500 }, 'whole seconds'],
		];
		for (const [rateLimit, message] of bad) {
			const refused = await control('POST', 'settings', { rateLimit });
			expect(refused.status).toBe(400);
			expect(refused.json.detail).toContain(message);
		}
		expect(sim.traffic.rateLimit).toBeUndefined();
	});

	it('computes the floor of the limit in force', async () => {
		const floor = async (query: string) => (await control('GET', `traffic/floor?${query}`)).json;
		expect(await floor('requests=500')).toEqual({ floorMs: 0 });
		await control('POST', 'settings', {
			rateLimit: { shape: 'fixed-window', requests: 60, windowMs: HOUR },
		});
		expect(await floor('requests=121')).toEqual({ floorMs: 2 * HOUR });
		expect(await floor(`requests=121&startMs=${HOUR - 1000}`)).toEqual({ floorMs: HOUR + 1000 });
		expect((await control('GET', 'traffic/floor?requests=many')).status).toBe(400);
	});

	it('starts from the rateLimit option again on reset', async () => {
		const limited = await startSimulator({
			clock,
			rateLimit: { shape: 'sliding-log-drf', requests: 1, windowMs: HOUR },
			rateLimitPerSecond: 50,
		});
		try {
			limited.traffic.admit();
			expect(limited.traffic.admit().refusal?.status).toBe(429);
			limited.reset();
			expect(limited.traffic.admit().refusal).toBeUndefined();
			expect(limited.traffic.rateLimit?.shape).toBe('sliding-log-drf');
		} finally {
			await limited.close();
		}
	});
});

describe('the virtual clock', () => {
	it('is the time of every record the simulator writes', async () => {
		clock.advance(12_345);
		const at = new Date(clock.now());
		const alert = sim.state.addAlert();
		expect(alert.created_at).toBe(at.toISOString());
		await call('POST', '/alerts/follow/', { nif: 'B64717838', type: 'company' });
		expect(sim.state.watchlist[0].added_at).toBe(
			`${at.toISOString().slice(0, 19).replace('T', ' ')}+00:00`,
		);
		const ordered = await call('POST', '/documents/order/', {
			nif: 'A86212420',
			type: 'accounts',
			year: '2023',
		});
		expect(sim.state.documents[0].created_at).toBe(at.toISOString());
		expect(JSON.parse(ordered.text).document_id).toBe(sim.state.documents[0].id);
		expect(sim.requests.map((logged) => logged.time)).toEqual([at.getTime(), at.getTime()]);
	});
});
