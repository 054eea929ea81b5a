// The pacer's waits, one answer at a time on the virtual clock: how long a throttle pauses the
// run, when a run stops waiting, and which requests go while it waits. pacing.test.mts and
// shapes.test.mts run whole jobs against the simulator's limits; here each answer is given, so
// each wait is exact.
import { describe, expect, it, vi } from 'vitest';

import { AccountPace } from '../../nodes/LibreBor/pacing/accountPace.ts';
import { InFlightLimit } from '../../nodes/LibreBor/pacing/inFlightLimit.ts';
import { Pacer, type PacedOutcome } from '../../nodes/LibreBor/pacing/pacer.ts';
import type { PacedStart } from '../../nodes/LibreBor/pacing/limitModel.ts';
import { pendingWorkRun, virtualClock } from '../support/virtualTime.mts';

vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

const FINE: PacedOutcome = { kind: 'fine' };
const throttled = (retryAfterMs?: number): PacedOutcome => ({
	kind: 'throttled',
	status: 429,
	retryAfterMs,
});

/** A pacer, the time since it started, and its next place taken on the virtual clock. */
function pacerWith(ceiling = 8, budgetMs = 300_000) {
	const pacer = new Pacer({ ceiling, budgetMs });
	const since = () => virtualClock.now() - pacer.startedAt;
	/** The next place, the clock moved on to each wake until the pacer gives it. */
	const next = async () => {
		const place = pacer.acquire();
		if (!(await settledOnceTimeMoves(place))) throw new Error('The pacer waits for an answer');
		const start = await place;
		if (!start) throw new Error('The pacer gave no place');
		return start;
	};
	return { pacer, since, next };
}

/** Slow start's first two rounds (4, then 8 requests), each answered fine `tookMs` after it started. */
async function twoFineRounds(paced: ReturnType<typeof pacerWith>, tookMs = 50) {
	for (const round of [4, 8]) await answeredFine(paced, round, tookMs);
}

/** `count` more starts, each answered fine `tookMs` later. */
async function answeredFine(
	{ pacer, next }: ReturnType<typeof pacerWith>,
	count: number,
	tookMs = 50,
) {
	const starts: PacedStart[] = [];
	for (let start = 0; start < count; start++) starts.push(await next());
	virtualClock.advance(tookMs);
	for (const start of starts) pacer.release(start, FINE);
}

/**
 * A pacer that measured 12 requests in 1,010 ms from LibreBOR's Retry-After (its pause over a
 * second after it), for `account` when one is given.
 */
async function measured(budgetMs = 300_000, account?: string) {
	const paced = pacerWith(50, budgetMs);
	if (account) paced.pacer.useAccount({ account });
	await twoFineRounds(paced);
	paced.pacer.release(await paced.next(), throttled(1000));
	return paced;
}

/** A pacer whose first request, refused after two minutes without a fine answer, stopped for lack of progress. */
async function stoppedForLackOfProgress() {
	const paced = pacerWith(4);
	const first = await paced.next();
	virtualClock.advance(121_000);
	paced.pacer.release(first, throttled(100));
	expect(paced.pacer.retryWait(100)).toBeUndefined();
	return paced;
}

/** Whether `promise` has settled once the clock has moved on to every wake due. */
async function settledOnceTimeMoves(promise: Promise<unknown>): Promise<boolean> {
	for (;;) {
		if (await settled(promise)) return true;
		const wakeAt = virtualClock.nextWakeAt;
		if (wakeAt === undefined) return false;
		virtualClock.set(wakeAt);
	}
}

/** Whether `promise` has settled after the pending work of this moment (the clock standing still). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(() => (done = true));
	await pendingWorkRun();
	return done;
}

describe('a throttle with a Retry-After', () => {
	it('pauses every request for as long as LibreBOR asked, never less', async () => {
		const { pacer, since, next } = pacerWith();
		const first = await next();
		pacer.release(first, throttled(2000));
		expect(pacer.retryWait(2000)).toBe(2000);
		const after = await next();
		expect(after.at - pacer.startedAt).toBe(2000);
		expect(since()).toBe(2000);
		// LibreBOR said when: the others need not wait for the first answer after the pause.
		expect(await settled(pacer.acquire())).toBe(true);
	});

	it('keeps the pause when another answer in it is a throttle without one', async () => {
		const { pacer, next } = pacerWith();
		const [a, b] = [await next(), await next()];
		pacer.release(a, throttled(2000));
		virtualClock.advance(500);
		pacer.release(b, throttled());
		expect((await next()).at - pacer.startedAt).toBe(2000);
	});

	it('halves the requests in flight when none got through to measure a window by', async () => {
		const { pacer, next } = pacerWith(8);
		const starts = [await next(), await next(), await next(), await next()];
		virtualClock.advance(50);
		for (const start of starts) pacer.release(start, throttled(1000));
		await next();
		await next();
		expect(await settled(pacer.acquire())).toBe(false);
	});

	it('a few through before it: as many again once it passed, the share of a window others spend too', async () => {
		const { pacer, next } = pacerWith(8);
		const starts = [await next(), await next(), await next(), await next()];
		virtualClock.advance(50);
		for (const start of starts.slice(1)) pacer.release(start, FINE);
		pacer.release(starts[0], throttled(1000));
		const after = [await next(), await next(), await next()];
		expect(after.map((start) => start.at - pacer.startedAt)).toEqual([1050, 1050, 1050]);
		// Not one request at a time, spaced by the time an answer took: the fourth waits a window.
		expect(await settled(pacer.acquire())).toBe(false);
	});

	it('waits for the longest Retry-After of the answers to the requests in flight', async () => {
		const { pacer, next } = pacerWith();
		const [a, b, c] = [await next(), await next(), await next()];
		pacer.release(a, throttled(2000));
		virtualClock.advance(500);
		pacer.release(b, throttled(3000));
		pacer.release(c, throttled(1000));
		expect(pacer.retryWait(undefined)).toBe(3000);
		expect((await next()).at - pacer.startedAt).toBe(3500);
	});

	it('stops waiting when the pause would run past the time budget, and frees every waiting request', async () => {
		const { pacer, next } = pacerWith(1, 5000);
		const first = await next();
		const waiting = pacer.acquire();
		pacer.release(first, throttled(6000));
		expect(pacer.retryWait(6000)).toBeUndefined();
		expect(pacer.stoppedBecause).toBe('budget');
		expect(await waiting).toBe(false);
		expect(await pacer.acquire()).toBe(false);
	});

	it('frees every request waiting for a place when the pause runs past the time budget', async () => {
		const { pacer, next } = pacerWith(1, 5000);
		const first = await next();
		const waiting = [pacer.acquire(), pacer.acquire(), pacer.acquire()];
		pacer.release(first, throttled(6000));
		expect(await Promise.all(waiting)).toEqual([false, false, false]);
	});

	it('frees the requests of a cancelled run at once while they wait for a place or a pause, and spends no place on them', async () => {
		const { pacer, next } = pacerWith(1);
		const first = await next();
		const cancel = new AbortController();
		const cancelled = Array.from({ length: 3 }, () => pacer.acquire(false, cancel.signal));
		const other = pacer.acquire();
		cancel.abort();
		expect(await Promise.all(cancelled)).toEqual(cancelled.map(() => false));
		// The place the first frees goes to the request still waiting.
		pacer.release(first, FINE);
		const second = (await other) as PacedStart;
		expect(second).toMatchObject({ at: expect.any(Number) });

		// Woken for the place, then cancelled before it took it: the place goes on to the next.
		const wokenThenCancelled = new AbortController();
		const woken = pacer.acquire(false, wokenThenCancelled.signal);
		const last = pacer.acquire();
		pacer.release(second, FINE);
		wokenThenCancelled.abort();
		expect(await settled(woken)).toBe(true);
		expect(await woken).toBe(false);
		expect(await settled(last)).toBe(true);
		const third = (await last) as PacedStart;
		expect(third).toMatchObject({ at: expect.any(Number) });

		const paused = new AbortController();
		pacer.release(third, throttled(60_000));
		const inPause = pacer.acquire(false, paused.signal);
		paused.abort();
		expect(await settled(inPause)).toBe(true);
		expect(await inPause).toBe(false);
		expect(await pacer.acquire(false, AbortSignal.abort())).toBe(false);
	});

	it('stays stopped at the time budget whatever answers come after, and names the throttle that stopped it', async () => {
		const { pacer, next } = pacerWith(4, 5000);
		const [a, b] = [await next(), await next()];
		pacer.release(a, { kind: 'throttled', status: 503, retryAfterMs: 6000 });
		expect(pacer.retryWait(6000)).toBeUndefined();
		pacer.release(b, FINE);
		expect(pacer.stoppedBecause).toBe('budget');
		// A request of an item that goes on after the fine answer is refused a place: its error says 503.
		expect(await pacer.acquire()).toBe(false);
		expect(pacer.lastThrottleStatus).toBe(503);
	});

	it('stays stopped at the time budget when a fine answer then shortens the backoff that ran past it', async () => {
		const { pacer, next } = pacerWith(4, 500);
		const [a, b] = [await next(), await next()];
		pacer.release(a, throttled());
		expect(pacer.retryWait(undefined)).toBeUndefined();
		virtualClock.advance(50);
		// LibreBOR takes requests again: the 1 s backoff is cut to half a window, within the budget.
		pacer.release(b, FINE);
		expect(pacer.retryWait(undefined)).toBeUndefined();
		expect(pacer.stoppedBecause).toBe('budget');
	});

	it('waits a pause that ends right at the time budget', async () => {
		const { pacer, next } = pacerWith(1, 5000);
		pacer.release(await next(), throttled(5000));
		expect(pacer.retryWait(5000)).toBe(5000);
		expect((await next()).at - pacer.startedAt).toBe(5000);
	});
});

describe('a throttle without a Retry-After', () => {
	it('backs off 1 s, doubled each time in a row, and stops after six pauses with no answer fine', async () => {
		const { pacer, next } = pacerWith(4);
		const waits: Array<number | undefined> = [];
		for (let pause = 0; pause < 6; pause++) {
			const start = await next();
			pacer.release(start, throttled());
			waits.push(pacer.retryWait(undefined));
		}
		expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, undefined]);
		expect(pacer.stoppedBecause).toBe('noProgress');
		expect(pacer.lastThrottleStatus).toBe(429);
	});

	it('sends one request alone after the pause, the others once it is answered', async () => {
		const { pacer, next } = pacerWith(4);
		pacer.release(await next(), throttled());
		const lead = await next();
		expect(lead.at - pacer.startedAt).toBe(1000);
		const follower = pacer.acquire();
		expect(await settled(follower)).toBe(false);
		pacer.release(lead, FINE);
		expect(await settled(follower)).toBe(true);
	});

	it('keeps the others waiting when a request sent before the pause is answered', async () => {
		const { pacer, next } = pacerWith(4);
		const [a, b] = [await next(), await next()];
		pacer.release(a, throttled());
		const lead = await next();
		const follower = pacer.acquire();
		pacer.release(b, { kind: 'other' });
		expect(await settled(follower)).toBe(false);
		pacer.release(lead, FINE);
		expect(await settled(follower)).toBe(true);
	});

	it('keeps a pause it chose once LibreBOR asks for a longer one', async () => {
		const { pacer, next } = pacerWith(4);
		const [a, b, c] = [await next(), await next(), await next()];
		pacer.release(a, throttled());
		virtualClock.advance(100);
		pacer.release(b, throttled(3000));
		virtualClock.advance(100);
		pacer.release(c, FINE);
		expect((await next()).at - pacer.startedAt).toBe(3100);
	});

	it('stops after six pauses LibreBOR asked for, with no answer fine', async () => {
		const { pacer, next } = pacerWith(4);
		const waits: Array<number | undefined> = [];
		for (let pause = 0; pause < 6; pause++) {
			pacer.release(await next(), throttled(100));
			waits.push(pacer.retryWait(100));
		}
		expect(waits).toEqual([100, 100, 100, 100, 100, undefined]);
	});

	it('lets the others go when the lone request is answered, whatever its answer', async () => {
		const { pacer, next } = pacerWith(4);
		pacer.release(await next(), throttled());
		const lead = await next();
		const follower = pacer.acquire();
		pacer.release(lead, { kind: 'other' });
		expect(await settled(follower)).toBe(true);
	});

	it('ends a pause it chose once an answer shows that LibreBOR takes requests', async () => {
		const { pacer, next } = pacerWith(4);
		const [a, b] = [await next(), await next()];
		pacer.release(a, throttled());
		virtualClock.advance(100);
		pacer.release(b, FINE);
		// Half the time that answer took.
		expect((await next()).at - pacer.startedAt).toBe(150);
	});

	it('wakes a request already waiting in a pause it chose once an answer cuts the pause short', async () => {
		const { pacer, next } = pacerWith(4);
		const [a, b] = [await next(), await next()];
		pacer.release(a, throttled());
		const waiting = pacer.acquire();
		expect(await settled(waiting)).toBe(false);
		virtualClock.advance(100);
		pacer.release(b, FINE);
		expect(await settledOnceTimeMoves(waiting)).toBe(true);
		expect(((await waiting) as PacedStart).at - pacer.startedAt).toBe(150);
	});

	it('keeps a pause LibreBOR asked for, whatever answers come in it', async () => {
		const { pacer, next } = pacerWith(4);
		const [a, b] = [await next(), await next()];
		pacer.release(a, throttled(2000));
		virtualClock.advance(100);
		pacer.release(b, FINE);
		expect((await next()).at - pacer.startedAt).toBe(2000);
	});

	it('waits a short while right after requests got through, twice, then backs off from 1 s', async () => {
		const { pacer, next } = pacerWith(4);
		const [a, b] = [await next(), await next()];
		virtualClock.advance(80);
		pacer.release(a, FINE);
		pacer.release(b, throttled());
		const waits = [pacer.retryWait(undefined)];
		for (let pause = 0; pause < 5; pause++) {
			pacer.release(await next(), throttled());
			waits.push(pacer.retryWait(undefined));
		}
		// As long as that answer took (80 ms); then, one at a time every 80 ms, half of that 1.5 times
		// over; then from 1 s, doubled; and no more after six pauses.
		expect(waits).toEqual([80, 60, 1000, 2000, 4000, undefined]);
	});

	it('gives up after two minutes without a fine answer, even between short pauses', async () => {
		const { pacer } = await stoppedForLackOfProgress();
		expect(pacer.stoppedBecause).toBe('noProgress');
	});

	it('counts the two minutes from the first request refused, not from a fine answer long before it (an idle account)', async () => {
		const { pacer, next } = pacerWith(4);
		pacer.release(await next(), FINE);
		virtualClock.advance(180_000);
		pacer.release(await next(), throttled(1000));
		expect(pacer.retryWait(1000)).toBe(1000);
	});

	it('once a request stopped for lack of progress, sends one more alone, and stops the run once LibreBOR refuses it too', async () => {
		const { pacer, next } = await stoppedForLackOfProgress();
		const probe = await next();
		const waiting = pacer.acquire();
		expect(await settled(waiting)).toBe(false);
		pacer.release(probe, throttled(100));
		expect(pacer.retryWait(100)).toBeUndefined();
		// Every other item of the run stops at once (Continue On Fail), not after a pause of its own.
		expect(await settled(waiting)).toBe(true);
		expect(await waiting).toBe(false);
		expect(await pacer.acquire()).toBe(false);
		expect(pacer.stoppedBecause).toBe('noProgress');
	});

	it('once a request stopped for lack of progress, waits for the answer to the one sent alone, not to one sent before', async () => {
		const { pacer, next } = pacerWith(4);
		const [first, older] = [await next(), await next()];
		virtualClock.advance(121_000);
		pacer.release(first, throttled(100));
		expect(pacer.retryWait(100)).toBeUndefined();
		const probe = await next();
		const waiting = pacer.acquire();
		pacer.release(older, throttled(100));
		expect(await settled(pacer.acquire())).toBe(false);
		expect(await settledOnceTimeMoves(waiting)).toBe(false);
		pacer.release(probe, FINE);
		expect(await settledOnceTimeMoves(waiting)).toBe(true);
		expect(await waiting).not.toBe(false);
	});

	it('once a request stopped for lack of progress, sends another alone when the first got no answer of LibreBOR (a network error)', async () => {
		const { pacer, next } = await stoppedForLackOfProgress();
		pacer.release(await next(), { kind: 'other' });
		const again = pacer.acquire();
		expect(await settledOnceTimeMoves(again)).toBe(true);
		expect(await again).not.toBe(false);
	});

	it('once a request stopped for lack of progress, goes on when the one sent alone after it is answered fine', async () => {
		const { pacer, next } = await stoppedForLackOfProgress();
		const probe = await next();
		const waiting = pacer.acquire();
		expect(await settled(waiting)).toBe(false);
		pacer.release(probe, FINE);
		expect(await settled(waiting)).toBe(true);
		expect(await waiting).not.toBe(false);
		expect(pacer.stoppedBecause).toBeUndefined();
	});

	it('keeps waiting at exactly two minutes without a fine answer', async () => {
		const { pacer, next } = pacerWith(4);
		const first = await next();
		virtualClock.advance(120_000);
		pacer.release(first, throttled(100));
		expect(pacer.retryWait(100)).toBe(100);
	});

	it('waits again once an answer is fine after it gave up', async () => {
		const { pacer, next } = pacerWith(4);
		const [a, b] = [await next(), await next()];
		virtualClock.advance(121_000);
		pacer.release(a, throttled(100));
		expect(pacer.retryWait(100)).toBeUndefined();
		pacer.release(b, FINE);
		expect(pacer.stoppedBecause).toBeUndefined();
		const c = await next();
		pacer.release(c, throttled(100));
		expect(pacer.retryWait(100)).toBe(100);
	});
});

describe('a window of starts measured', () => {
	it('starts as many at once as got through, and the next once the window has passed', async () => {
		const { pacer, next } = await measured();
		const burst: PacedStart[] = [];
		for (let start = 0; start < 12; start++) burst.push(await next());
		const pausedUntil = burst[0].at;
		expect(burst.every((start) => start.at === pausedUntil)).toBe(true);
		const after = await next();
		expect(after.at - pausedUntil).toBe(1010);
		expect(pacer.learned).toMatchObject({ capacity: 12, windowMs: 1010 });
	});

	it('sends one request alone again after a second pause, whenever the first lone one is answered', async () => {
		const { pacer, next } = await measured();
		const [a, b] = [await next(), await next()];
		pacer.release(a, throttled());
		const lead = await next();
		pacer.release(b, throttled());
		virtualClock.advance(100);
		pacer.release(lead, FINE);
		await next();
		expect(await settled(pacer.acquire())).toBe(false);
	});

	it('gives no place in the window to a request LibreBOR refused', async () => {
		const { pacer, next } = await measured();
		const burst: PacedStart[] = [];
		for (let start = 0; start < 12; start++) burst.push(await next());
		// All refused: half as many at once (6) from now on, and none holds a place in the window.
		for (const start of burst) pacer.release(start, throttled(500));
		const after = await next();
		expect(after.at - burst[0].at).toBe(500);
	});

	it('frees no place of the requests still in flight when the window that halved no longer counts a refused one', async () => {
		const { next, pacer } = await measured();
		const burst: PacedStart[] = [];
		for (let start = 0; start < 12; start++) burst.push(await next());
		// The first refusal halves the window to the 6 newest starts: the later refusals of the
		// 6 oldest are of starts it no longer counts, and the 6 in flight keep their places.
		for (const start of burst.slice(0, 6)) pacer.release(start, throttled(500));
		const after = await next();
		expect(after.at - burst[0].at).toBe(1020);
	});

	it('does not wait for a window past the time budget: LibreBOR decides', async () => {
		const { pacer, next } = await measured(1500);
		for (let start = 0; start < 12; start++) await next();
		const after = await next();
		expect(after.at - pacer.startedAt).toBe(1100);
		// A wait that ends right at the budget is waited.
		const edge = await measured(2110);
		for (let start = 0; start < 12; start++) await edge.next();
		expect((await edge.next()).at - edge.pacer.startedAt).toBe(2110);
	});

	it('waits out short pauses of a known window for 30 s without a fine answer, not six pauses', async () => {
		const { pacer, next } = await measured();
		const lastFineAt = virtualClock.now();
		const waits: Array<number | undefined> = [];
		while (waits.at(-1) !== undefined || waits.length === 0) {
			pacer.release(await next(), throttled());
			waits.push(pacer.retryWait(undefined));
		}
		expect(waits.length).toBeGreaterThan(6);
		expect(pacer.stoppedBecause).toBe('noProgress');
		// At the first throttle 30 s after the last fine answer, long before two minutes.
		const sinceFine = virtualClock.now() - lastFineAt;
		expect(sinceFine).toBeGreaterThanOrEqual(30_000);
		expect(sinceFine - (waits.at(-2) ?? 0)).toBeLessThan(30_000);
	});

	it('gives up between the short pauses of a known window at 30 s without a fine answer to the millisecond', async () => {
		const { pacer, next } = await measured();
		const lastFineAt = virtualClock.now();
		for (let pause = 0; pause < 6; pause++) {
			pacer.release(await next(), throttled());
			expect(pacer.retryWait(undefined)).toBeDefined();
		}
		virtualClock.set(lastFineAt + 29_999);
		expect(pacer.retryWait(undefined)).toBeDefined();
		virtualClock.set(lastFineAt + 30_000);
		expect(pacer.retryWait(undefined)).toBeUndefined();
		expect(pacer.stoppedBecause).toBe('noProgress');
	});
});

describe('a window many times longer than the burst that met it (a minute)', () => {
	// 12 through in the first 100 ms, LibreBOR asking for 59 s; or, on a busy machine, in the first
	// 3 s, asking for 57 s: a twentieth of the window, which Retry-After's whole seconds cannot tell;
	// a Retry-After of 10 s is long enough for that, whatever the burst took.
	it.each([
		{ tookMs: 50, retryAfterMs: 59_000 },
		{ tookMs: 1500, retryAfterMs: 57_000 },
		{ tookMs: 300, retryAfterMs: 10_000 },
	])(
		'lets the burst in again as it was answered, a window later counted from its first request (answers in $tookMs ms)',
		async ({ tookMs, retryAfterMs }) => {
			const paced = pacerWith(50);
			const { pacer, next } = paced;
			await twoFineRounds(paced, tookMs);
			pacer.release(await next(), throttled(retryAfterMs));
			const after: number[] = [];
			for (let start = 0; start < 12; start++) after.push((await next()).at - pacer.startedAt);
			// Each answer's time, plus the time asked for, the burst and a 10 ms margin.
			const windowMs = retryAfterMs + 2 * tookMs + 10;
			expect(after).toEqual([
				...Array(4).fill(tookMs + windowMs),
				...Array(8).fill(2 * tookMs + windowMs),
			]);
		},
	);
});

describe('what a run hands the next one', () => {
	it('the most requests it had in flight with no throttle, once more than it started with', async () => {
		const { pacer, next } = pacerWith(16);
		const round = async (count: number) => {
			const starts: PacedStart[] = [];
			for (let start = 0; start < count; start++) starts.push(await next());
			for (const start of starts) pacer.release(start, FINE);
		};
		await round(4);
		expect(pacer.learned).toBeUndefined();
		await round(8);
		expect(pacer.learned).toEqual({ inFlight: 8 });
	});

	it('no number in flight once a throttle came', async () => {
		const { pacer, next } = pacerWith(16);
		const starts: PacedStart[] = [];
		for (let start = 0; start < 4; start++) starts.push(await next());
		for (const start of starts) pacer.release(start, FINE);
		for (let start = 0; start < 8; start++) starts.push(await next());
		pacer.release(starts[4], throttled(1000));
		expect(pacer.learned).toBeUndefined();
	});

	it('starts from what an earlier run learned of the account, read by the first request only', async () => {
		const store = {};
		const account = `pacer-${Math.random()}`;
		const teacher = pacerWith(16);
		teacher.pacer.useAccount({ account, store });
		const starts: PacedStart[] = [];
		for (let start = 0; start < 4; start++) starts.push(await teacher.next());
		for (const start of starts.splice(0)) teacher.pacer.release(start, FINE);
		for (let start = 0; start < 8; start++) starts.push(await teacher.next());
		for (const start of starts.splice(0)) teacher.pacer.release(start, FINE);
		teacher.pacer.finish();

		const learner = pacerWith(16);
		expect(learner.pacer.knowsAccount).toBe(false);
		learner.pacer.useAccount({ account, store });
		learner.pacer.useAccount({ account: `${account}-other`, store: {} });
		expect(learner.pacer.knowsAccount).toBe(true);
		for (let start = 0; start < 8; start++) await learner.next();
		expect(await settled(learner.pacer.acquire())).toBe(false);

		const late = pacerWith(16);
		await late.next();
		late.pacer.useAccount({ account, store });
		for (let start = 1; start < 4; start++) await late.next();
		expect(await settled(late.pacer.acquire())).toBe(false);
	});

	it("holds a run to its own Parallel Requests when the account's pace, shared with a wider run, allows more", async () => {
		const account = `pacer-${Math.random()}`;
		pacerWith(8).pacer.useAccount({ account });
		const narrow = pacerWith(2);
		narrow.pacer.useAccount({ account });
		const first = await narrow.next();
		await narrow.next();
		// Slow start lets the account have 4 in flight: 2 more, but not for this run.
		const third = narrow.pacer.acquire();
		expect(await settledOnceTimeMoves(third)).toBe(false);
		narrow.pacer.release(first, FINE);
		expect(await settledOnceTimeMoves(third)).toBe(true);
	});

	it("counts the account's starts made between its own start and its first request (an order's settle pause)", async () => {
		const account = `pacer-${Math.random()}`;
		const teacher = await measured(300_000, account);
		const waiting = pacerWith(50);
		virtualClock.advance(500);
		// The teacher's next window, 12 answered fine, after the waiting run started.
		const window: PacedStart[] = [];
		for (let start = 0; start < 12; start++) window.push(await teacher.next());
		virtualClock.advance(50);
		for (const start of window) teacher.pacer.release(start, FINE);
		teacher.pacer.finish();
		waiting.pacer.useAccount({ account });
		expect((await waiting.next()).at - window[0].at).toBe(50 + 1010);
	});

	it('the window it started from when no throttle came, and nothing when refused before any fine answer', () => {
		const fromWindow = new AccountPace(virtualClock.now(), 16, { capacity: 12, windowMs: 1010 });
		expect(fromWindow.learned).toMatchObject({ capacity: 12, windowMs: 1010 });
		const fromInFlight = new AccountPace(virtualClock.now(), 16, { inFlight: 8 });
		expect(fromInFlight.learned).toEqual({ inFlight: 8 });
		const start: PacedStart = { at: virtualClock.now() };
		fromInFlight.started(start);
		fromInFlight.answered(start, throttled());
		expect(fromInFlight.learned).toBeUndefined();
	});

	it('keeps nothing when it learned nothing, and needs an account to keep anything', async () => {
		const account = `pacer-${Math.random()}`;
		const store = {};
		const idle = pacerWith(16);
		idle.pacer.useAccount({ account, store });
		idle.pacer.finish();
		expect(store).toEqual({});
		const { pacer, next } = pacerWith(16);
		const starts: PacedStart[] = [];
		for (let start = 0; start < 4; start++) starts.push(await next());
		for (const start of starts.splice(0)) pacer.release(start, FINE);
		for (let start = 0; start < 8; start++) starts.push(await next());
		expect(pacer.learned).toEqual({ inFlight: 8 });
		expect(() => pacer.finish()).not.toThrow();
	});
});

describe('the requests in flight', () => {
	/** Starts as many as are free, answers them all `kind`; how many it started. */
	function round(limit: InFlightLimit, kind: 'fine' | 'throttled' | 'other' = 'fine') {
		const count = limit.free;
		for (let start = 0; start < count; start++) limit.started();
		for (let answer = 0; answer < count; answer++) limit.answered(kind);
		return count;
	}

	it('doubles from 4 each round of fine answers, up to the ceiling', () => {
		const limit = new InFlightLimit(20);
		expect([round(limit), round(limit), round(limit), round(limit)]).toEqual([4, 8, 16, 20]);
		expect(limit.most).toBe(20);
	});

	it('starts the next round of slow start only once the last is answered in full', () => {
		const limit = new InFlightLimit(20);
		for (let start = 0; start < 4; start++) limit.started();
		limit.answered('fine');
		expect(limit.free).toBe(0);
		for (let answer = 0; answer < 3; answer++) limit.answered('other');
		expect(limit.free).toBe(8);
	});

	it('at the ceiling, lets one start for each answer', () => {
		const limit = new InFlightLimit(8);
		round(limit);
		for (let start = 0; start < 8; start++) limit.started();
		limit.answered('fine');
		expect(limit.free).toBe(1);
	});

	it('halves at a throttle, then grows by one per round of fine answers, never past the ceiling', () => {
		const limit = new InFlightLimit(6);
		round(limit);
		expect(limit.free).toBe(6);
		limit.throttled(false);
		const sizes: number[] = [];
		for (let rounds = 0; rounds < 5; rounds++) sizes.push(round(limit));
		expect(sizes).toEqual([3, 4, 5, 6, 6]);
		limit.throttled(false);
		limit.throttled(false);
		limit.throttled(false);
		expect(limit.free).toBe(1);
	});

	it('counts only fine answers toward the next raise', () => {
		const limit = new InFlightLimit(8, 8);
		limit.throttled(false);
		for (let start = 0; start < 4; start++) limit.started();
		for (const kind of ['fine', 'fine', 'other', 'throttled'] as const) limit.answered(kind);
		limit.started();
		limit.answered('fine');
		expect(limit.free).toBe(4);
		limit.started();
		limit.answered('fine');
		expect(limit.free).toBe(5);
	});

	it('lets one start for each answer from the start when it starts at the ceiling', () => {
		const limit = new InFlightLimit(8, 8);
		for (let start = 0; start < 8; start++) limit.started();
		limit.answered('fine');
		expect(limit.free).toBe(1);
	});

	it("takes its runs' ceilings together: one that joins raises it and slow start goes on, one that leaves lowers it", () => {
		const limit = new InFlightLimit(8);
		expect([round(limit), round(limit)]).toEqual([4, 8]);
		limit.changeCeiling(8);
		expect([round(limit), round(limit)]).toEqual([8, 16]);
		limit.changeCeiling(-8);
		expect(limit.free).toBe(8);
		limit.throttled(false);
		limit.changeCeiling(8);
		expect(limit.free).toBe(4);
	});

	it('grows by one per round of fine answers after a throttle, even once a run joins', () => {
		const limit = new InFlightLimit(8);
		round(limit);
		limit.throttled(false);
		limit.changeCeiling(8);
		expect([round(limit), round(limit), round(limit)]).toEqual([4, 5, 6]);
	});

	it('at the ceiling after a run left, lets one start for each answer', () => {
		const limit = new InFlightLimit(4);
		limit.changeCeiling(4);
		expect([round(limit), round(limit)]).toEqual([4, 8]);
		limit.started();
		limit.started();
		limit.changeCeiling(-4);
		expect(limit.free).toBe(2);
		limit.started();
		limit.started();
		limit.answered('fine');
		expect(limit.free).toBe(1);
	});

	it('goes to the ceiling once a window of starts sets the pace', () => {
		const limit = new InFlightLimit(16);
		round(limit);
		limit.throttled(true);
		expect(limit.free).toBe(16);
		// Paced, it stays at the ceiling of the runs together as one joins.
		limit.changeCeiling(8);
		expect(limit.free).toBe(24);
	});

	it('counts no throttled answer toward a round of slow start', () => {
		const limit = new InFlightLimit(16);
		for (let start = 0; start < 4; start++) limit.started();
		for (const kind of ['fine', 'fine', 'fine', 'throttled'] as const) limit.answered(kind);
		limit.throttled(false);
		expect(limit.free).toBe(2);
	});
});

describe('the runs of one account at once', () => {
	/** Two runs that know they send to the same account (no earlier run taught it anything). */
	function twoRunsOfOneAccount(ceiling = 4) {
		const account = `pacer-${Math.random()}`;
		const runs = [pacerWith(ceiling), pacerWith(ceiling)];
		for (const { pacer } of runs) pacer.useAccount({ account });
		return runs;
	}

	it('send one request alone again at a later stop for lack of progress, after the other run got through', async () => {
		const [a, b] = twoRunsOfOneAccount();
		/** Refused after two minutes without a fine answer: the run stops. */
		const stuck = async () => {
			const first = await a.next();
			virtualClock.advance(121_000);
			a.pacer.release(first, throttled(100));
			expect(a.pacer.retryWait(100)).toBeUndefined();
		};
		await stuck();
		a.pacer.release(await a.next(), throttled(100));
		expect(a.pacer.retryWait(100)).toBeUndefined();
		// The other run gets through: the account makes progress, and the run's next throttle is waited out.
		b.pacer.release(await b.next(), FINE);
		a.pacer.release(await a.next(), throttled(100));
		expect(a.pacer.retryWait(100)).toBe(100);
		await stuck();
		const probe = a.pacer.acquire();
		expect(await settledOnceTimeMoves(probe)).toBe(true);
		expect(await probe).not.toBe(false);
	});

	it('pause together for as long as LibreBOR asked of one of them', async () => {
		const [a, b] = twoRunsOfOneAccount();
		a.pacer.release(await a.next(), throttled(2000));
		expect((await b.next()).at - b.pacer.startedAt).toBe(2000);
	});

	it('keep waiting out the throttles of one run while the other gets through: the account makes progress', async () => {
		const [a, b] = twoRunsOfOneAccount();
		const waits: Array<number | undefined> = [];
		for (let pause = 0; pause < 10; pause++) {
			b.pacer.release(await b.next(), throttled(100));
			waits.push(b.pacer.retryWait(100));
			a.pacer.release(await a.next(), FINE);
		}
		expect(waits).toEqual(Array.from({ length: 10 }, () => 100));
		expect(b.pacer.stoppedBecause).toBeUndefined();
	});

	it('stop after six pauses in a row with nothing through for the account, whichever run was refused', async () => {
		const [a, b] = twoRunsOfOneAccount();
		const waits: Array<number | undefined> = [];
		for (let pause = 0; pause < 3; pause++) {
			for (const run of [a, b]) {
				run.pacer.release(await run.next(), throttled(100));
				waits.push(run.pacer.retryWait(100));
			}
		}
		expect(waits).toEqual([100, 100, 100, 100, 100, undefined]);
		expect(b.pacer.stoppedBecause).toBe('noProgress');
		expect(a.pacer.retryWait(100)).toBeUndefined();
	});

	it("stop at a time budget another run's 503 runs past, and name the 503", async () => {
		const account = `pacer-${Math.random()}`;
		const [a, b] = [pacerWith(4), pacerWith(4, 5000)];
		for (const { pacer } of [a, b]) pacer.useAccount({ account });
		a.pacer.release(await a.next(), { kind: 'throttled', status: 503, retryAfterMs: 6000 });
		expect(await b.pacer.acquire()).toBe(false);
		expect(b.pacer.stoppedBecause).toBe('budget');
		expect(b.pacer.lastThrottleStatus).toBe(503);
	});

	it('keep waiting out a Retry-After of a second, however many in a row, for two minutes: executions in other processes may hold the window', async () => {
		const [a, b] = twoRunsOfOneAccount();
		const waits: Array<number | undefined> = [];
		for (let pause = 0; pause < 20; pause++) {
			for (const run of [a, b]) {
				run.pacer.release(await run.next(), throttled(1000));
				waits.push(run.pacer.retryWait(1000));
			}
		}
		expect(waits.filter((wait) => wait === undefined)).toEqual([]);
		virtualClock.advance(120_001);
		a.pacer.release(await a.next(), throttled(1000));
		expect(a.pacer.retryWait(1000)).toBeUndefined();
		expect(a.pacer.stoppedBecause).toBe('noProgress');
	});

	it('start together no more than the window of starts one of them measured lets through', async () => {
		const [a, b] = twoRunsOfOneAccount(50);
		await twoFineRounds(a);
		a.pacer.release(await a.next(), throttled(1000));
		// 12 in 1,010 ms for the account: 6 each, and the next of either once the window has passed.
		const burst: PacedStart[] = [];
		for (let start = 0; start < 6; start++) burst.push(await a.next(), await b.next());
		expect(burst.every((start) => start.at === burst[0].at)).toBe(true);
		expect((await b.next()).at - burst[0].at).toBe(1010);
	});

	it('stop an order (sent once) unsent when the window would make it wait past the time budget, where another request goes', async () => {
		const { pacer, next } = await measured(1500);
		// After the pause, a window of 12 at 1,100 ms: the next start would wait until 2,160 ms.
		for (let start = 0; start < 12; start++) await next();
		expect(await pacer.acquire(true)).toBe(false);
		expect(pacer.stoppedBecause).toBe('turnPastBudget');
		const read = await pacer.acquire();
		expect(read).not.toBe(false);
		// The order's stop is its own: a throttle of another request is still waited out.
		pacer.release(read as PacedStart, throttled(100));
		expect(pacer.retryWait(100)).toBe(100);
	});

	it("send an order (sent once) into a window its account's other requests have left, and hold them meanwhile: a share's step waits too", async () => {
		const [run] = twoRunsOfOneAccount(50);
		const fourFine = async () => {
			const starts = [await run.next(), await run.next(), await run.next(), await run.next()];
			virtualClock.advance(50);
			for (const start of starts) run.pacer.release(start, FINE);
		};
		// Four through, then LibreBOR's Retry-After: a share of four a window (others spend the rest).
		await fourFine();
		run.pacer.release(await run.next(), throttled(1000));
		// A window of fine answers at four, and the share takes a step: a fifth start in the window.
		await fourFine();
		await fourFine();
		const lastAnsweredAt = virtualClock.now();
		const order = run.pacer.acquire(true);
		const step = run.pacer.acquire();
		expect(await settled(order)).toBe(false);
		expect(await settled(step)).toBe(false);
		expect(await settledOnceTimeMoves(order)).toBe(true);
		// The order once the last of the four (counted from its answer) left the window (1,060 ms: the
		// Retry-After, its margin and the 50 ms burst that met it); the step, which the window had room
		// for at once, right after the order.
		expect(((await order) as PacedStart).at - lastAnsweredAt).toBe(1060);
		expect(await settledOnceTimeMoves(step)).toBe(true);
		expect(((await step) as PacedStart).at - lastAnsweredAt).toBe(1061);
	});

	it('let another request than an order (sent once) waiting for its window be the one that goes alone after a backoff: the order then waits for its answer', async () => {
		const paced = await measured();
		const { pacer, next } = paced;
		// After the pause, a window of 12 in 1,010 ms: six start and are answered, six more 350 ms later.
		await answeredFine(paced, 6);
		virtualClock.advance(300);
		const late = [];
		for (let start = 0; start < 6; start++) late.push(await next());
		const order = pacer.acquire(true);
		expect(await settled(order)).toBe(false);
		virtualClock.advance(50);
		for (const start of late.slice(1)) pacer.release(start, FINE);
		// One refused without Retry-After: a backoff the pacer chose, after which one request goes alone.
		pacer.release(late[0], throttled());
		const follow = pacer.acquire();
		expect(await settledOnceTimeMoves(follow)).toBe(true);
		expect(await settledOnceTimeMoves(order)).toBe(false);
		pacer.release((await follow) as PacedStart, FINE);
		expect(await settledOnceTimeMoves(order)).toBe(true);
	});

	it('hold for each order in turn: a second order waiting for its window holds them as the first did', async () => {
		const paced = await measured();
		const { pacer } = paced;
		await answeredFine(paced, 11);
		const first = pacer.acquire(true);
		expect(await settledOnceTimeMoves(first)).toBe(true);
		virtualClock.advance(50);
		pacer.release((await first) as PacedStart, FINE);
		const answeredAt = virtualClock.now();
		const second = pacer.acquire(true);
		const follow = pacer.acquire();
		expect(await settled(follow)).toBe(false);
		expect(await settledOnceTimeMoves(second)).toBe(true);
		expect(((await second) as PacedStart).at - answeredAt).toBe(1010);
		expect(await settledOnceTimeMoves(follow)).toBe(true);
		expect(((await follow) as PacedStart).at - answeredAt).toBe(1011);
	});

	it('hold no longer for an order whose run is cancelled while it waits for its window, and free a cancelled request that holds for it at once', async () => {
		const paced = await measured();
		const { pacer } = paced;
		await answeredFine(paced, 11);
		const cancel = new AbortController();
		const order = pacer.acquire(true, cancel.signal);
		const follow = pacer.acquire();
		expect(await settled(follow)).toBe(false);
		const cancelFollow = new AbortController();
		const cancelledFollow = pacer.acquire(false, cancelFollow.signal);
		cancelFollow.abort();
		expect(await settled(cancelledFollow)).toBe(true);
		expect(await cancelledFollow).toBe(false);
		const cancelledAt = virtualClock.now();
		cancel.abort();
		expect(await order).toBe(false);
		// The eleven left room in the window of 12: the follow goes at once, not at the order's turn.
		expect(await settled(follow)).toBe(true);
		expect(((await follow) as PacedStart).at).toBe(cancelledAt);
	});

	it('hold for an order waiting on its window only as far as their Time Budget allows, then keep to their own window', async () => {
		const account = `pacer-${Math.random()}`;
		// Twelve through, then a Retry-After of 1 s: a window of 12 starts in 1,010 ms.
		const a = await measured(300_000, account);
		const pauseEnd = a.since() + 1000;
		const eleven = [];
		for (let start = 0; start < 11; start++) eleven.push(await a.next());
		expect(a.since()).toBe(pauseEnd);
		virtualClock.advance(50);
		for (const start of eleven) a.pacer.release(start, FINE);
		virtualClock.advance(850);
		await a.next();
		// The window is full; the order waits until it is empty, 1,010 ms from now.
		const order = a.pacer.acquire(true);
		expect(await settled(order)).toBe(false);
		// A run with half a second of budget left: the oldest of the eleven leaves the window in 160 ms.
		// One with a budget that ends right after the order's turn holds for it.
		const [b, c] = [pacerWith(50, 500), pacerWith(50, 1011)];
		for (const { pacer } of [b, c]) pacer.useAccount({ account });
		const startedAt = virtualClock.now();
		const held = c.pacer.acquire();
		const start = await b.next();
		expect(start.at - startedAt).toBe(160);
		expect(await settledOnceTimeMoves(held)).toBe(true);
		expect(((await held) as PacedStart).at - startedAt).toBe(1011);
	});

	it('send past a limit not yet known one slow-start round of the account, not one round each', async () => {
		const [a, b] = twoRunsOfOneAccount(8);
		const first = [await a.next(), await a.next(), await b.next(), await b.next()];
		const waiting = b.pacer.acquire();
		expect(await settled(waiting)).toBe(false);
		for (const [index, start] of first.entries()) (index < 2 ? a : b).pacer.release(start, FINE);
		// The account's second round: 8 together, the one that waited among them.
		expect(await waiting).not.toBe(false);
		for (let start = 0; start < 4; start++) await a.next();
		for (let start = 0; start < 3; start++) await b.next();
		expect(await settled(a.pacer.acquire())).toBe(false);
	});

	it("take their Parallel Requests together: two runs of 4 send 8 at once after the account's first round", async () => {
		const [a, b] = twoRunsOfOneAccount(4);
		const first = [await a.next(), await a.next(), await b.next(), await b.next()];
		for (const [index, start] of first.entries()) (index < 2 ? a : b).pacer.release(start, FINE);
		for (let start = 0; start < 4; start++) {
			await a.next();
			await b.next();
		}
		expect(await settled(a.pacer.acquire())).toBe(false);
	});

	it('give back the Parallel Requests of a run that finished: one that joins then goes on in slow start', async () => {
		const account = `pacer-${Math.random()}`;
		const [a, b, c] = [pacerWith(4), pacerWith(4), pacerWith(4)];
		for (const { pacer } of [a, b]) pacer.useAccount({ account });
		const first = [await a.next(), await a.next(), await b.next(), await b.next()];
		for (const [index, start] of first.entries()) (index < 2 ? a : b).pacer.release(start, FINE);
		b.pacer.finish();
		c.pacer.useAccount({ account });
		for (let start = 0; start < 4; start++) await a.next();
		// The account is at 4 of the 8 the two runs may have: a round of 4 answered before more.
		expect(await settled(c.pacer.acquire())).toBe(false);
	});

	it('let a run that starts after the others began keep to their pace, and forget it once none is left', async () => {
		const account = `pacer-${Math.random()}`;
		const first = pacerWith(4);
		first.pacer.useAccount({ account });
		first.pacer.release(await first.next(), throttled(2000));
		const late = pacerWith(4);
		late.pacer.useAccount({ account });
		expect((await late.next()).at - first.pacer.startedAt).toBe(2000);
		first.pacer.finish();
		late.pacer.finish();
		const next = pacerWith(4);
		next.pacer.useAccount({ account });
		expect((await next.next()).at - next.pacer.startedAt).toBe(0);
	});
});
