// The limit is the account's: every stack the simulator models keys it by the client's credential
// (DRF's UserRateThrottle by user, tastypie by the user's identifier, Kong by consumer, nginx by a
// key such as the Authorization header), so requests of several executions or workers using the
// same credential, each on connections of its own, count together against one limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';

import {
	createLimiter,
	ManualClock,
	RATE_LIMIT_SHAPES,
	startSimulator,
	type RateLimit,
	type Simulator,
} from '../../tools/simulator/index.mts';

const CLIENTS = 4;
const EACH = 10;
const clock = new ManualClock(Date.UTC(2025, 0, 6, 9));
let sim: Simulator;

beforeAll(async () => {
	sim = await startSimulator({ clock });
});
afterAll(async () => await sim.close());

/** `EACH` reads of the watch list, one after another, by a client with connections of its own; their statuses. */
async function clientReads(): Promise<number[]> {
	const { username, password } = sim.credentials;
	const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
	const dispatcher = new Agent();
	const statuses: number[] = [];
	try {
		for (let read = 0; read < EACH; read++) {
			const response = await request(`${sim.baseUrl}/alerts/following/`, {
				dispatcher,
				headers: { authorization },
			});
			await response.body.dump();
			statuses.push(response.statusCode);
		}
		return statuses;
	} finally {
		await dispatcher.close();
	}
}

/** What the limit admits of `count` requests sent one after another, each answered at once, by one client. */
function admittedAlone(limit: RateLimit, count: number): number {
	const limiter = createLimiter(limit);
	let admitted = 0;
	for (let sent = 0; sent < count; sent++) {
		const decision = limiter.admit(clock.now());
		decision.onAnswered?.(200, clock.now());
		if (!decision.refusal) admitted++;
	}
	return admitted;
}

describe.each(RATE_LIMIT_SHAPES)('%s', (shape) => {
	it(`admits of ${CLIENTS} clients of one account, each on connections of its own, what it admits of one client`, async () => {
		sim.reset();
		clock.advance(3_600_000);
		const limit: RateLimit = { shape, requests: 12, windowMs: 1000 };
		sim.traffic.rateLimit = limit;
		const statuses: number[] = [];
		for (let client = 0; client < CLIENTS; client++) statuses.push(...(await clientReads()));
		const admitted = statuses.filter((status) => status === 200).length;
		expect(admitted).toBe(admittedAlone(limit, CLIENTS * EACH));
		// Each client alone would have had all of its reads admitted.
		expect(admitted).toBeLessThan(CLIENTS * EACH);
	});
});
