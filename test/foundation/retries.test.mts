import { describe, expect, it, vi } from 'vitest';

import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { inVirtualTime, virtualClock } from '../support/virtualTime.mts';

// When and how long a read is tried again: Retry-After in each of its forms, the backoff without
// it, the budgets of retries and of waiting (what the user reads of each answer: answers.test.mts;
// that an order is never sent again: its table there and the order lanes of test/faults). The
// nodes wait on a virtual clock: a retry's wait is read exactly and takes no real time. The
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

describe('Retries of a read', () => {
	it.each<[string, number, string | number, number]>([
		['whole seconds, on a 429', 429, 1, SECOND],
		['decimal seconds', 503, '1.5', 1500],
		['hundredths of a second', 503, '1.25', 1250],
		['a past HTTP date', 503, 'Wed, 21 Oct 2015 07:28:00 GMT', 0],
		// A server error's Retry-After, not the shorter backoff.
		['7 s, on a 500', 500, 7, 7 * SECOND],
		['7 s, on a 502', 502, 7, 7 * SECOND],
		['7 s, on a 504', 504, 7, 7 * SECOND],
	])(
		'waits a Retry-After given as %s, then reads again',
		async (_case, status, retryAfter, waitMs) => {
			const alert = sim().state.addAlert();
			sim().injectFault({ path: '/v2/alerts/', status, retryAfter });
			const { result, waitedMs } = await timed(getAlerts);
			expect(waitedMs).toBe(waitMs);
			expect(jsonOf(result).map((item) => item.id)).toEqual([alert.id]);
			expect(alertReads()).toBe(2);
		},
	);

	// Read as dates by JavaScript's lenient parser, each would be a date years ago: "retry now".
	it.each(['-1', '+5', '1,5'])(
		'takes a Retry-After of "%s" as none: backs off 1 s, as without one',
		async (retryAfter) => {
			const alert = sim().state.addAlert();
			sim().injectFault({ path: '/v2/alerts/', status: 429, retryAfter });
			const { result, waitedMs } = await timed(getAlerts);
			expect(waitedMs).toBe(SECOND);
			expect(jsonOf(result).map((item) => item.id)).toEqual([alert.id]);
		},
	);

	it('waits a Retry-After given as an HTTP date', async () => {
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

	// A server error's Retry-After is waited up to 30 s, and up to 60 s in all for one request.
	it.each<[string, number, number, number, number, number]>([
		['30 s, once', 500, 30, 1, 30, 2],
		['31 s', 500, 31, Infinity, 0, 1],
		// 20 s three times fits the 60 s exactly: every retry is sent, and the fourth try fails.
		['20 s, every time', 502, 20, Infinity, 60, 4],
		// 25 s a third time would make 75 s: the request fails after two retries.
		['25 s, every time', 502, 25, Infinity, 50, 3],
	])(
		'on a Retry-After of %s, waits what fits the limits, then reads or fails',
		async (_case, status, retryAfter, times, waitedS, reads) => {
			sim().injectFault({ path: '/v2/alerts/', status, retryAfter, times });
			const { result, waitedMs } = await timed(getAlerts);
			expect(result.error?.message).toBe(
				times === 1 ? undefined : `LibreBOR had a server error (${status})`,
			);
			expect(waitedMs).toBe(waitedS * SECOND);
			expect(alertReads()).toBe(reads);
		},
	);

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
});
