// What a run learns of the account's limit, kept for the next runs with the same credential: in
// the process, and in the workflow's static data for another process; stale after a day. On the
// virtual clock, every answer taking the same latency on it (see shapes.test.mts).
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { DEFAULT_PARALLEL_REQUESTS } from '../../nodes/LibreBor/pacing/pacer.ts';
import { runListSearch } from '../../tools/engine/index.mts';
import { copyOf, onAnotherWorker, order, savedWorkflow } from '../actions/orderRuns.mts';
import {
	credentialsFor,
	placedDocument,
	runLibreBor,
	useSimulator,
	type RunOptions,
} from '../support/libreBor.mts';
import {
	inVirtualTime,
	onlyWhenRequestsWait,
	runInVirtualTime,
	virtualClock,
} from '../support/virtualTime.mts';
import { follow, nifItems } from './followJob.mts';

vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

/** How long a learned limit is kept, as docs/performance.md says: 24 hours. */
const LEARNED_LIMIT_TTL_MS = 24 * 3_600_000;

// A new simulator, so a new account, for every test: the first run of each knows nothing yet.
const sim = useSimulator({ clock: virtualClock, latencyMs: 50 }, { perTest: true });

/** Document > Download of each item's document, already made. */
const download = {
	resource: 'document',
	operation: 'download',
	documentId: '={{ $json.documentId }}',
	binaryPropertyName: 'data',
};

/** A job of Parallel Requests items, and one large enough for slow start to reach them (4, 8, 16, 32, then 50). */
const JOB = DEFAULT_PARALLEL_REQUESTS;
const TEACHING_JOB = 3 * DEFAULT_PARALLEL_REQUESTS;

/** Follows `count` new companies, every one of them; how long it took, the 429s, the most in flight. */
async function followRun(count: number, from: number, options: RunOptions = {}) {
	sim().traffic.resetCounters();
	const startedAt = virtualClock.now();
	const result = await runInVirtualTime(sim, follow(), {
		items: nifItems(count, from),
		...options,
	});
	expect(result.error).toBeUndefined();
	expect(result.items.filter((item) => item.error)).toEqual([]);
	return {
		ms: virtualClock.now() - startedAt,
		throttled: sim().traffic.throttled,
		maxInFlight: sim().traffic.maxInFlight,
	};
}

describe('what a run learned of the limit, for the next runs with the same account', () => {
	it(
		'starts a second run under a limit at the pace the first one found: hardly a 429, near the floor',
		{ timeout: 60_000 },
		async () => {
			sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 };
			const first = await followRun(60, 0);
			expect(first.throttled).toBeGreaterThan(2);

			// Another second, so that the first run's requests have left the limit's log.
			virtualClock.advance(1_000);
			const floorMs = sim().traffic.floorMs(61);
			const second = await followRun(60, 60);
			expect(second.throttled).toBe(0);
			// 1.08x on this clock.
			expect(second.ms, `${second.ms} ms, floor ${floorMs} ms`).toBeLessThan(floorMs * 1.15);
		},
	);

	it(
		'probes a window LibreBOR told as rarely in a second run as in the first: not slower, no 429',
		{ timeout: 60_000 },
		async () => {
			sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 };
			const first = await followRun(250, 0);
			virtualClock.advance(1_000);
			// Probed after eight windows as if untold, a narrower window drew a 429 whose Retry-After
			// cost a whole window: 13,669 ms against 12,860.
			const second = await followRun(250, 250);
			expect(second.throttled).toBe(0);
			expect(second.ms).toBeLessThanOrEqual(first.ms);
		},
	);

	it(
		'paces a second run under a token bucket by its refill, as the first found it: not slower than the first, no 429, in another process too',
		{ timeout: 60_000 },
		async () => {
			sim().traffic.rateLimit = { shape: 'token-bucket', requests: 20, windowMs: 1000 };
			const workflow = savedWorkflow();
			const first = await followRun(100, 0, { workflow });
			const [stored] = Object.values(libreBorLimits(workflow.staticData));
			expect(stored).toMatchObject({ limit: { capacity: 20, refill: 'confirmed' } });

			// Kept to a window of 20 a second, the 101st request waited for a sixth: 5,400 ms against 4,360.
			virtualClock.advance(1_000);
			const second = await followRun(100, 100, { workflow });
			expect(second.throttled).toBe(0);
			expect(second.ms).toBeLessThanOrEqual(first.ms);

			virtualClock.advance(1_000);
			const elsewhere = { workflow: { id: workflow.id, staticData: copyOf(workflow.staticData) } };
			const third = await followRun(100, 200, { ...elsewhere, nodeType: await onAnotherWorker() });
			expect(third.throttled).toBe(0);
			expect(third.ms).toBeLessThanOrEqual(first.ms);
		},
	);

	it('keeps what a run of items waiting for documents learned: the next Download run draws no 429, in another process too', async () => {
		sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 };
		const workflow = savedWorkflow();
		const downloadRun = async (count: number, from: number, options: RunOptions = {}) => {
			sim().traffic.resetCounters();
			sim().state.balance = count * sim().state.orderPrice;
			const items = nifItems(count, from).map(({ nif }) => ({
				documentId: placedDocument(sim(), nif).id,
			}));
			const result = await runInVirtualTime(sim, download, { items, workflow, ...options });
			expect(result.items.filter((item) => item.error)).toEqual([]);
			return sim().traffic.throttled;
		};
		expect(await downloadRun(60, 0)).toBeGreaterThan(2);
		virtualClock.advance(1_000);
		expect(await downloadRun(60, 60)).toBe(0);
		virtualClock.advance(1_000);
		const elsewhere = { workflow: { id: workflow.id, staticData: copyOf(workflow.staticData) } };
		expect(await downloadRun(60, 120, { ...elsewhere, nodeType: await onAnotherWorker() })).toBe(0);
	});

	it('keeps what the look-ups of an Order by name learned of the limit: the next run, in another process too, draws no 429', async () => {
		sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 10, windowMs: 1000 };
		const workflow = savedWorkflow();
		const slugs = new Set(nifItems(14, 500).map(({ nif }) => sim().state.companies.get(nif).slug));
		const items = [...slugs].slice(0, 12).map((slug) => ({ slug }));
		sim().state.balance = items.length * sim().state.orderPrice;
		const byName = {
			resource: 'document',
			operation: 'order',
			company: { __rl: true, mode: 'slug', value: '={{ $json.slug }}' },
			year: 2023,
			options: { maxOrders: items.length },
		};
		const ordered = await runInVirtualTime(sim, byName, { items, workflow });
		expect(ordered.items.filter((item) => item.error)).toEqual([]);
		expect(sim().state.ordersReceived).toBe(items.length);
		// Slow start sent 4, then 8 look-ups into a window of 10.
		expect(sim().traffic.throttled).toBeGreaterThan(0);

		virtualClock.advance(1_000);
		const elsewhere = { workflow: { id: workflow.id, staticData: copyOf(workflow.staticData) } };
		const next = await followRun(30, 0, { ...elsewhere, nodeType: await onAnotherWorker() });
		expect(next.throttled).toBe(0);
	});

	it('starts a second run at Parallel Requests when the first had that many in flight and drew no throttle', async () => {
		// Slow answers keep a round's requests in flight together, so the simulator sees what the pacer allows.
		sim().state.latencyMs = 400;
		// Knowing nothing, a run doubles from 4 a round: 4, 8, 16, then the 22 left.
		expect((await followRun(JOB, 0)).maxInFlight).toBeLessThan(JOB);
		await followRun(TEACHING_JOB, JOB);
		expect((await followRun(JOB, JOB + TEACHING_JOB)).maxInFlight).toBe(JOB);
	});

	it('hands what it learned to another n8n process through the workflow static data, and not through a retry', async () => {
		sim().state.latencyMs = 400;
		const workflow = savedWorkflow();
		await followRun(TEACHING_JOB, 0, { workflow });
		const stored = copyOf(workflow.staticData);
		expect(JSON.stringify(stored)).not.toContain(sim().credentials.username);
		// Under a short hash of the account, whatever the length of its URL and user.
		expect(Object.keys(libreBorLimits(stored))).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);

		const elsewhere = await followRun(JOB, TEACHING_JOB, {
			workflow: { id: workflow.id, staticData: stored },
			nodeType: await onAnotherWorker(),
		});
		expect(elsewhere.maxInFlight).toBe(JOB);

		// n8n starts a retry without the workflow's static data, and would save over it: left alone.
		const retried: IDataObject = {};
		await followRun(JOB, TEACHING_JOB + JOB, {
			workflow: { id: workflow.id, staticData: retried },
			nodeType: await onAnotherWorker(),
			mode: 'retry',
		});
		expect(retried).toEqual({});
	});

	it('forgets what it learned a day after it was last confirmed, in this process and in the workflow', async () => {
		sim().state.latencyMs = 400;
		const workflow = savedWorkflow();
		const start = virtualClock.now();
		await followRun(TEACHING_JOB, 0, { workflow });

		virtualClock.set(start + LEARNED_LIMIT_TTL_MS - 60_000);
		const stillKnown = await followRun(JOB, TEACHING_JOB, { workflow });
		expect(stillKnown.maxInFlight).toBe(JOB);

		// A day after the run that confirmed it: stale, here and in the static data.
		virtualClock.set(start + 2 * LEARNED_LIMIT_TTL_MS);
		const stale = await followRun(JOB, TEACHING_JOB + JOB, { workflow });
		expect(stale.maxInFlight).toBeLessThan(JOB);
	});

	it('learns again when the limit fell since, without failing an item, and the next run keeps to the new one', async () => {
		sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 };
		await followRun(60, 0);
		sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 5, windowMs: 1000 };
		const fell = await followRun(25, 60);
		expect(fell.throttled).toBeGreaterThan(0);

		virtualClock.advance(1_000);
		// Knowing nothing, slow start would send 12 into a window of 5.
		const floorMs = sim().traffic.floorMs(26);
		const next = await followRun(25, 85);
		expect(next.throttled).toBe(0);
		expect(next.ms, `${next.ms} ms, floor ${floorMs} ms`).toBeLessThan(floorMs * 1.15);
	});

	it("leaves the editor's list searches out of the account's pace: one answers while a run waits out a Retry-After of a minute", async () => {
		sim().injectFault({
			method: 'POST',
			path: '/v2/alerts/follow/',
			status: 429,
			retryAfter: 60,
			times: 3,
		});
		let searchTookMs: number | undefined;
		let search: Promise<unknown> | undefined;
		const startSearch = () => {
			const startedAt = virtualClock.now();
			return runListSearch({
				nodeType: new LibreBor(),
				method: 'searchWatchedCompanies',
				credentials: credentialsFor(sim()),
				parameters: { resource: 'watchlist', operation: 'unfollow' },
			}).then(() => (searchTookMs = virtualClock.now() - startedAt));
		};
		const requestsWait = onlyWhenRequestsWait(sim);
		const run = await inVirtualTime(
			runLibreBor(sim(), follow(), { items: nifItems(3) }),
			(wakeAt) => {
				// The run's pause is the next thing to end: the search starts in it.
				if (!search && wakeAt - virtualClock.now() > 30_000) {
					search = startSearch();
					return false;
				}
				return requestsWait(wakeAt);
			},
		);
		expect(search).toBeDefined();
		await inVirtualTime(search as Promise<unknown>, requestsWait);
		expect(run.items.filter((item) => item.error)).toEqual([]);
		expect(sim().state.watchlist).toHaveLength(3);
		// One request's time on this clock; joined to the account's pace, the search waited the minute.
		expect(searchTookMs).toBeLessThan(1_000);
	});

	describe('from the workflow static data another process wrote', () => {
		/** A run of 40 follows on another worker, from static data that holds `limit` for this account, learned `ago` ms before. */
		async function runFrom(limit: unknown, { ago = 0, from = 0 } = {}) {
			const workflow = savedWorkflow();
			// Nine follows have five in flight with no throttle: a run stores that, under the account's key.
			await followRun(9, 10_000 + from, { workflow });
			const [account] = Object.keys(libreBorLimits(workflow.staticData));
			virtualClock.advance(1_000);
			const entry = { at: virtualClock.now() - ago, limit };
			return await followRun(40, from, {
				workflow: {
					id: workflow.id,
					staticData: { global: { libreBorLimits: { [account]: entry } } },
				},
				nodeType: await onAnotherWorker(),
			});
		}
		/** Knowing nothing, a run doubles from 4 a round: 4, 8, 16, then the 12 left. */
		const KNOWING_NOTHING = 16;

		it('starts at the pace of a window of starts stored there: not one 429', async () => {
			const window = { capacity: 20, windowMs: 1_050 };
			sim().traffic.rateLimit = { shape: 'sliding-log-drf', requests: 20, windowMs: 1000 };
			expect((await runFrom(window)).throttled).toBe(0);
		});

		it.each([
			['a capacity over 1,000', { capacity: 1_001, windowMs: 1_050 }],
			['a window of negative time', { capacity: 20, windowMs: -1_000 }],
			['a window over two hours', { capacity: 20, windowMs: 2 * 3_600_000 + 1 }],
			['a count in flight over 1,000', { inFlight: 1_001 }],
			['a count in flight that is no whole number', { inFlight: 8.5 }],
			['a text', 'fast'],
			['nothing', null],
		])(
			'ignores a store that holds %s, and starts as a run that knows nothing',
			async (_, limit) => {
				sim().state.latencyMs = 400;
				expect((await runFrom(limit)).maxInFlight).toBe(KNOWING_NOTHING);
			},
		);

		it('ignores a limit stored with a time to come, or a day ago', async () => {
			sim().state.latencyMs = 400;
			const window = { capacity: 40, windowMs: 1_000 };
			expect((await runFrom(window, { ago: -60_000 })).maxInFlight).toBe(KNOWING_NOTHING);
			const dayAgo = { ago: LEARNED_LIMIT_TTL_MS, from: 40 };
			expect((await runFrom(window, dayAgo)).maxInFlight).toBe(KNOWING_NOTHING);
		});

		it("sends no order whose turn in a stored hour's window comes after the time budget, and says so; nothing is spent", async () => {
			const workflow = savedWorkflow();
			await followRun(9, 10_000, { workflow });
			const [account] = Object.keys(libreBorLimits(workflow.staticData));
			const hourly = {
				capacity: 1,
				windowMs: 3_600_000,
				recentStarts: [virtualClock.now() - 1000],
			};
			const result = await runInVirtualTime(sim, order(), {
				workflow: {
					id: workflow.id,
					staticData: {
						global: { libreBorLimits: { [account]: { at: virtualClock.now(), limit: hourly } } },
					},
				},
				nodeType: await onAnotherWorker(),
			});
			expect(result.error?.message).toBe(
				"Not sent: LibreBOR's rate limit leaves room for it only after the run's time budget of 5 min; 0 of 1 items were done by then",
			);
			expect(sim().state.ordersReceived).toBe(0);
		});

		it('keeps the five accounts learned last, so that the static data stays small', async () => {
			const workflow = savedWorkflow();
			const at = virtualClock.now();
			const others = Object.fromEntries(
				[1, 2, 3, 4, 5].map((n) => [`other-${n}`, { at: at - n * 60_000, limit: { inFlight: 8 } }]),
			);
			workflow.staticData.global = { libreBorLimits: others };
			sim().state.latencyMs = 400;
			await followRun(TEACHING_JOB, 0, { workflow });
			const kept = Object.keys(libreBorLimits(workflow.staticData));
			expect(kept).toHaveLength(5);
			expect(kept).not.toContain('other-5');
			expect(kept).toEqual(expect.arrayContaining(['other-1', 'other-2', 'other-3', 'other-4']));
		});
	});
});

/** The learned limits in a workflow's static data, by account. */
function libreBorLimits(staticData: IDataObject): IDataObject {
	return (staticData.global as IDataObject).libreBorLimits as IDataObject;
}
