// The pacer's reading of a rate limit, step by step: what a run concludes from the answers it got,
// and so how long its next request waits. The shape tests (shapes.test.mts) hold whole runs near
// each limit's floor; most changes to these rules only make a run a little slower or refused a
// little more often, which a whole run cannot tell apart from the machine. Here every time is given,
// so each rule's outcome is exact: the wait before the next start, and what the next run starts from.
import { describe, expect, it } from 'vitest';

import { LimitModel, type PacedStart } from '../../nodes/LibreBor/pacing/limitModel.ts';
import { StartWindow } from '../../nodes/LibreBor/pacing/startWindow.ts';
import { WindowProbe } from '../../nodes/LibreBor/pacing/windowProbe.ts';

/** `count` requests started at `at`, each answered fine `tookMs` later. */
function fines(model: LimitModel, count: number, at: number, tookMs = 50): PacedStart[] {
	const starts = Array.from({ length: count }, () => ({ at }));
	for (const start of starts) model.started(start);
	for (const start of starts) model.fine(start, at + tookMs);
	return starts;
}

/** A request started at `at` that LibreBOR refused. */
function refusal(model: LimitModel, at: number): void {
	const start = { at };
	model.started(start);
	model.refused(start);
}

/** How many requests start at `at` before the window makes the next one wait (100 at most). */
function startsAtOnce(model: LimitModel, at: number): number {
	let started = 0;
	while (model.waitMs(at) === 0 && started < 100) {
		model.started({ at });
		started++;
	}
	return started;
}

/** When the next request may start, from `time`. */
const nextStartAt = (model: LimitModel, time: number) => time + model.waitMs(time);

/**
 * A run that let 12 requests through at once and was then refused: told a Retry-After of 1 s
 * (a window of 1,010 ms, its pause over at 1,100 ms), or not (throttled at 400 ms, paused 1 s: a
 * window of 1,400 ms).
 */
function twelveAtOnce({ told }: { told: boolean }): LimitModel {
	const model = new LimitModel(0);
	fines(model, 12, 0);
	if (told) model.throttled(100, 1000, 1000);
	else model.throttled(400, 1000);
	return model;
}

/**
 * A run that got 8 requests through (each answered in 80 ms) before LibreBOR told it to come back in
 * a second: a share of a window others spend too.
 */
function aShareOfEight(): LimitModel {
	const model = new LimitModel(0);
	fines(model, 8, 0, 80);
	model.throttled(100, 1000, 1000);
	return model;
}

/**
 * Twelve at once held a window of 1,400 ms, twice: then refused within a burst at 2,850 ms (a probe),
 * not told when to come back; the pause ends at 3,350 ms.
 */
function aProbeRefused(): LimitModel {
	const model = twelveAtOnce({ told: false });
	fines(model, 12, 1400);
	refusal(model, 2850);
	model.throttled(2850, 500);
	return model;
}

/** `aProbeRefused`, then refused at the first request after that pause, at 3,350 ms, again not told. */
function refusedAtTheWindowsFirstRequest(): LimitModel {
	const model = aProbeRefused();
	refusal(model, 3350);
	model.throttled(3350, 600);
	return model;
}

describe('a window of starts (a sliding log, as Django REST framework counts)', () => {
	it('lets `capacity` requests start at once, and the next when the oldest is a window old', () => {
		const window = new StartWindow(3, 1000);
		for (const at of [0, 100, 200]) {
			expect(window.waitMs(at)).toBe(0);
			window.record(at);
		}
		expect(window.waitMs(300)).toBe(700);
		expect(window.waitMs(1000)).toBe(0);
		expect(window.waitMs(300, 500)).toBe(200);
		expect(window.oldestStart).toBe(0);
		window.record(1000);
		expect(window.recentStarts).toEqual([100, 200, 1000]);
	});

	it('puts an answer behind the starts of its millisecond, so that the oldest it drops first is one still in flight', () => {
		const window = new StartWindow(2, 1000);
		const [answered, inFlight] = [{}, {}];
		window.record(60, answered);
		window.record(100, inFlight);
		window.settle(answered, 100);
		window.record(200);
		// The request in flight since 100 ms went first; LibreBOR refuses it: the window still counts 2.
		window.forget(inFlight);
		expect(window.recentStarts).toEqual([100, 200]);
		expect(window.waitMs(300)).toBe(800);
	});

	it('keeps the newest starts of an earlier run, as many as its capacity', () => {
		const window = new StartWindow(2.7, 1000, [0, 100, 200, 300]);
		expect(window.capacity).toBe(2);
		expect(window.recentStarts).toEqual([200, 300]);
		expect(window.waitMs(400)).toBe(800);
		window.recentStarts.push(900);
		expect(window.recentStarts).toEqual([200, 300]);
	});

	it('keeps the newest starts when its capacity falls, and at least one', () => {
		const window = new StartWindow(5, 1000, [0, 100, 200, 300, 400]);
		window.capacity = 2;
		expect(window.recentStarts).toEqual([300, 400]);
		window.capacity = 0;
		expect(window.capacity).toBe(1);
		expect(window.recentStarts).toEqual([400]);
		expect(new StartWindow(0, 1000).capacity).toBe(1);
	});

	/** A window of `capacity` and the requests of these starts, recorded in it. */
	function recorded(capacity: number, times: number[]) {
		const window = new StartWindow(capacity, 1000);
		const requests = times.map((at) => ({ at }));
		for (const request of requests) window.record(request.at, request);
		return { window, requests };
	}

	it('does not count a request LibreBOR refused, found by the request, not its time', () => {
		const { window, requests } = recorded(3, [0, 100, 100]);
		window.forget(requests[1]);
		expect(window.recentStarts).toEqual([0, 100]);
		window.forget(requests[1]);
		window.forget({ at: 0 });
		expect(window.recentStarts).toEqual([0, 100]);
		window.forget(requests[0]);
		expect(window.recentStarts).toEqual([100]);
		expect(window.waitMs(150)).toBe(0);
	});

	it('counts a request from its answer, in order, once LibreBOR answered it fine', () => {
		const { window, requests } = recorded(3, [0, 100, 200]);
		window.settle(requests[0], 150);
		expect(window.recentStarts).toEqual([100, 150, 200]);
		expect(window.waitMs(300)).toBe(800);
		window.settle(requests[1], 400);
		expect(window.recentStarts).toEqual([150, 200, 400]);
		window.settle(requests[0], 600);
		window.settle({ at: 200 }, 600);
		expect(window.recentStarts).toEqual([150, 200, 400]);
		window.settle(requests[2], 100);
		expect(window.recentStarts).toEqual([100, 150, 400]);
	});

	it('has no request of its own for a start it was given as a time', () => {
		const window = new StartWindow(2, 1000, [0, 100]);
		const sameTime = { at: 100 };
		window.forget(sameTime);
		window.settle(sameTime, 500);
		expect(window.recentStarts).toEqual([0, 100]);
	});
});

describe('probing a window for a higher limit', () => {
	/** A window of 2 starts a second, its probe, and five fine answers: enough to try a narrower one. */
	function probed(spacing = 1) {
		const window = new StartWindow(2, 1000);
		const probe = new WindowProbe(spacing);
		const finesUntilProbe = (count: number) => {
			for (let answer = 0; answer < count; answer++) probe.fine(window, { at: 0 }, false);
		};
		return { window, probe, finesUntilProbe };
	}

	it('tries a window 10% narrower after five fine answers, and keeps it after five more', () => {
		const { window, probe, finesUntilProbe } = probed();
		finesUntilProbe(4);
		expect([probe.active, window.windowMs]).toEqual([false, 1000]);
		finesUntilProbe(1);
		expect([probe.active, window.windowMs, probe.heldMs]).toEqual([true, 900, 1000]);
		finesUntilProbe(5);
		expect([probe.active, window.windowMs, probe.heldMs]).toEqual([false, 900, 900]);
		// Each probe that held goes twice as far: 20% narrower.
		finesUntilProbe(5);
		expect([probe.active, window.windowMs]).toEqual([true, 720]);
	});

	it('lets no other start that only the narrower window allows go before the first is answered', () => {
		const { window, probe, finesUntilProbe } = probed();
		finesUntilProbe(5);
		window.record(0);
		window.record(50);
		const early = { at: 950 };
		probe.started(window, early);
		window.record(early.at);
		// The narrower window lets the next start at 950; the one that held, at 1050.
		expect(probe.waitMs(window, 960)).toBe(90);
		probe.fine(window, { at: 50 }, false);
		expect(probe.waitMs(window, 960)).toBe(90);
		probe.fine(window, early, false);
		expect(probe.waitMs(window, 960)).toBe(0);
		// Only the first such start goes alone: the probe's answer is in.
		probe.started(window, { at: 960 });
		expect(probe.waitMs(window, 960)).toBe(0);
	});

	it('lets a start that the window that held allows go on its own', () => {
		const { window, probe, finesUntilProbe } = probed();
		finesUntilProbe(5);
		window.record(0);
		const onTime = { at: 100 };
		probe.started(window, onTime);
		window.record(onTime.at);
		const early = { at: 950 };
		probe.started(window, early);
		window.record(early.at);
		expect(probe.waitMs(window, 960)).toBe(140);
		probe.fine(window, early, false);
		expect(probe.waitMs(window, 960)).toBe(40);
	});

	it('counts the fine answers that try a window again from a throttle on', () => {
		const { window, probe, finesUntilProbe } = probed();
		finesUntilProbe(4);
		probe.interrupted();
		finesUntilProbe(4);
		expect(probe.active).toBe(false);
		finesUntilProbe(1);
		expect(probe.active).toBe(true);
		expect(window.windowMs).toBe(900);
	});

	it('goes back to the window that held when a probe draws a throttle, and aims between the two next', () => {
		const { window, probe, finesUntilProbe } = probed();
		finesUntilProbe(10);
		finesUntilProbe(5);
		expect(window.windowMs).toBe(720);
		probe.interrupted();
		probe.failed(window);
		expect([probe.active, window.windowMs]).toEqual([false, 900]);
		// The next probe waits twice as many windows (10 fine answers), from the first step again.
		finesUntilProbe(9);
		expect([probe.active, window.windowMs]).toEqual([false, 900]);
		finesUntilProbe(1);
		expect([probe.active, window.windowMs]).toEqual([true, 810]);
		finesUntilProbe(5);
		finesUntilProbe(5);
		// 20% narrower than 810 is 648, past the 720 that failed: halfway to it instead.
		expect(window.windowMs).toBe(765);
	});

	it('stops probing once the window that held is within 3% of one that failed', () => {
		const window = new StartWindow(2, 1000);
		const probe = new WindowProbe(1, 1000, 970);
		const answer = () => probe.fine(window, { at: 0 }, false);
		for (let count = 0; count < 5; count++) answer();
		expect([probe.active, window.windowMs]).toEqual([false, 1000]);
		// Not even after twice as many windows: spaced out further each time, up to 16 windows.
		for (let count = 0; count < 5 * (2 + 4 + 8 + 16); count++) answer();
		expect(probe.active).toBe(false);
		// At the widest spacing the failure is forgotten, and the next probe starts afresh.
		for (let count = 0; count < 5 * 16; count++) answer();
		expect([probe.active, window.windowMs]).toEqual([true, 900]);
	});

	it('probes a window LibreBOR told only after two windows of fine answers', () => {
		const window = new StartWindow(4, 1000);
		const probe = new WindowProbe(1);
		for (let count = 0; count < 7; count++) probe.fine(window, { at: 0 }, true);
		expect(probe.active).toBe(false);
		probe.fine(window, { at: 0 }, true);
		expect(probe.active).toBe(true);
	});

	it('keeps a throttle before any window held from changing the window', () => {
		const window = new StartWindow(2, 1000);
		const probe = new WindowProbe(1);
		probe.failed(window);
		expect(window.windowMs).toBe(1000);
		for (let count = 0; count < 5; count++) probe.fine(window, { at: 0 }, false);
		expect(window.windowMs).toBe(900);
	});
});

describe('the limit a run measures', () => {
	it('at the first throttle with a Retry-After: as many at once as got through, again once it passed', () => {
		const model = new LimitModel(0);
		fines(model, 12, 0);
		refusal(model, 100);
		model.throttled(100, 1000, 1000);
		expect(model.paced).toBe(true);
		expect(model.learned).toEqual({ capacity: 12, windowMs: 1010, recentStarts: [], told: true });
		const burst = fines(model, 12, 1100);
		expect(burst).toHaveLength(12);
		// Counted from their answers (at 1150): the next burst a window and a margin later.
		expect(nextStartAt(model, 1150)).toBe(2160);
	});

	it('a burst under a minute keeps every place it took when requests still in flight are refused', () => {
		const model = new LimitModel(0);
		fines(model, 12, 0);
		// Started as the burst's answers came (at 50), refused after the throttle had measured the
		// window from those answers: nothing of the window is its own to give back.
		const inFlight = { at: 50 };
		model.started(inFlight);
		model.throttled(100, 59_000, 59_000);
		model.refused(inFlight);
		// The 12 answers at 50, a window of 59 s, the 100 ms burst and a 10 ms margin later.
		expect(nextStartAt(model, 59_100)).toBe(50 + 59_110);
	});

	it('a burst under a minute counts a request of it answered fine after the throttle from its answer', () => {
		const model = new LimitModel(0);
		const late = { at: 0 };
		model.started(late);
		fines(model, 12, 0);
		model.throttled(100, 59_000, 59_000);
		// LibreBOR let 13 through: the 12 answers at 50 and this one at 150 each take a place.
		model.fine(late, 150);
		expect(nextStartAt(model, 59_100)).toBe(50 + 59_110);
		for (let start = 0; start < 12; start++) model.started({ at: 50 + 59_110 });
		expect(nextStartAt(model, 50 + 59_110)).toBe(150 + 59_110);
	});

	it('a Retry-After of exactly 20 times the burst, under 10 s, counts the burst from its answers too', () => {
		const model = new LimitModel(0);
		fines(model, 12, 0);
		model.throttled(250, 5000, 5000);
		// The 12 answers at 50, the 5 s asked for, the 250 ms burst and a 10 ms margin later.
		expect(nextStartAt(model, 5250)).toBe(50 + 5260);
	});

	it('gives no place in the window to a request LibreBOR refused', () => {
		const model = new LimitModel(0);
		fines(model, 12, 0);
		model.throttled(100, 1000, 1000);
		fines(model, 11, 1100);
		refusal(model, 1100);
		expect(model.waitMs(1150)).toBe(0);
		fines(model, 1, 1150);
		expect(model.waitMs(1200)).toBe(1010 - 50);
	});

	it('lets the first start that only a narrower window allows go alone', () => {
		const model = twelveAtOnce({ told: false });
		// 12 fine answers in the window of 1,400 ms: the next window tried is 1,260 ms.
		fines(model, 12, 1400);
		expect(nextStartAt(model, 1450)).toBe(1450 + 1260);
		model.started({ at: 2710 });
		expect(nextStartAt(model, 2710)).toBe(1450 + 1400);
	});

	it('keeps a request sent once (an order) to the window that held while a narrower one is tried', () => {
		// 12 through, then refused at 400 ms and paused 1,700 ms: a window of 2,100 ms, measured
		// without Retry-After, so counted to its whole seconds (3 s) for an order; 12 fine answers in
		// it: the next window tried is 1,890 ms (2 s).
		const model = new LimitModel(0);
		fines(model, 12, 0);
		model.throttled(400, 1700);
		fines(model, 12, 2100);
		expect(nextStartAt(model, 2150)).toBe(2150 + 1890);
		expect(2150 + model.waitMs(2150, true)).toBe(2150 + 3000);
	});

	it('counts a window measured without Retry-After to its whole seconds for a request sent once (an order), and only such a window', () => {
		// Tastypie counts a request in whole seconds, until the second after its window's last:
		// a window that held at the phases tried may be up to a second short at another.
		const untold = twelveAtOnce({ told: false });
		fines(untold, 12, 1400);
		expect(1450 + untold.waitMs(1450, true)).toBe(1450 + 2000);
		const told = twelveAtOnce({ told: true });
		fines(told, 12, 1100);
		expect(1150 + told.waitMs(1150, true)).toBe(1150 + 1010);
		const aSecond = new LimitModel(0, { capacity: 12, windowMs: 1000 });
		fines(aSecond, 1, 0);
		expect(aSecond.waitMs(50, true)).toBe(2000);
		// Measured from here, a window may be a round trip shorter than LibreBOR saw it.
		const aRoundTripShort = new LimitModel(0, { capacity: 12, windowMs: 950 });
		fines(aRoundTripShort, 1, 0);
		expect(aRoundTripShort.waitMs(50, true)).toBe(2000);
		// A spacing of a second or more without Retry-After (nginx under one request a second) too.
		const slowSpacing = new LimitModel(0, { capacity: 1, windowMs: 1100 });
		slowSpacing.started({ at: 0 });
		expect(slowSpacing.waitMs(0, true)).toBe(2000);
		const spacing = new LimitModel(0, { capacity: 1, windowMs: 200 });
		spacing.started({ at: 0 });
		expect(spacing.waitMs(50, true)).toBe(150);
	});

	it('sends a request sent once (an order) at once into a learned window that holds no start', () => {
		const model = new LimitModel(0, { capacity: 12, windowMs: 1010, told: true });
		expect(model.waitMs(0, true)).toBe(0);
	});

	it('sends a request sent once (an order) only once the requests have left the window that held, not into the room it counts', () => {
		// Kong and tastypie count a request once answered: a burst gets more through than they
		// count, and a request sent after it into what the window counts as room is refused.
		const model = twelveAtOnce({ told: false });
		fines(model, 6, 1400);
		fines(model, 3, 1600);
		expect(model.waitMs(1700)).toBe(0);
		// The window of 1,400 ms, measured without Retry-After, to its whole seconds.
		expect(1700 + model.waitMs(1700, true)).toBe(1650 + 2000);
	});

	it('takes no answer to a request sent once (an order) as proof that a narrower window holds: it kept to the wider one', () => {
		const model = twelveAtOnce({ told: false });
		// 12 fine answers in the window of 1,400 ms: the next window tried is 1,260 ms.
		fines(model, 12, 1400);
		for (let order = 0; order < 12; order++) {
			const start = { at: 3000 + order * 1400, sentOnce: true };
			model.started(start);
			model.fine(start, start.at + 50);
		}
		expect(model.learned?.windowMs).toBe(1400);
	});

	it('raises the capacity for the requests of the same burst answered fine after the throttle', () => {
		const model = new LimitModel(0);
		const late = { at: 100 };
		fines(model, 12, 0);
		model.started(late);
		model.throttled(100, 1000, 1000);
		model.fine(late, 120);
		expect(model.learned?.capacity).toBe(13);
	});

	it('takes ten fine answers as enough to measure a burst', () => {
		const model = new LimitModel(0);
		fines(model, 10, 0);
		model.throttled(100, 1000, 1000);
		expect(model.learned).toMatchObject({ capacity: 10, windowMs: 1010 });
		// Refused again with no request started since: those ten still tell the rate, 10 in 2,150 ms.
		model.throttled(1150, 1000, 1000);
		expect(model.learned).toMatchObject({ capacity: 10, windowMs: 2150 });
	});

	it('measures nothing from answers that took no time', () => {
		const model = new LimitModel(0);
		fines(model, 3, 0, 0);
		model.throttled(100, 1000);
		expect(model.paced).toBe(false);
	});

	it('at the first throttle without one: the window is as long as the cycle and its pause', () => {
		const model = new LimitModel(1000);
		fines(model, 12, 1000);
		model.throttled(1400, 1000);
		expect(model.learned).toMatchObject({ capacity: 12, windowMs: 1400 });
		expect(model.halfWindowMs()).toBe(700);
	});

	it('after few fine answers: one request at a time, one per answer, kept for no other run', () => {
		const model = new LimitModel(0);
		fines(model, 3, 0, 80);
		model.throttled(100, 1000);
		expect(model.paced).toBe(true);
		expect(model.learned).toBeUndefined();
		const next = { at: 1200 };
		model.started(next);
		expect(model.waitMs(1200)).toBe(80);
		// Counted from its start, not its answer: one at a time keeps an even spacing.
		model.fine(next, 1280);
		expect(model.waitMs(1280)).toBe(0);
		expect(model.halfWindowMs()).toBeUndefined();
		expect(model.halfWindowMs(true)).toBe(40);
	});

	it('after a round of fine answers and a Retry-After: as many per window as got through, raised by the late answers (a share of a window other processes spend)', () => {
		const model = new LimitModel(0);
		const late = { at: 0 };
		model.started(late);
		fines(model, 5, 0, 80);
		model.throttled(100, 1000, 1000);
		expect(model.paced).toBe(true);
		expect(model.learned).toBeUndefined();
		// LibreBOR let 5 through before it refused: 5 start again once the pause is over, the sixth a
		// window (Retry-After and its margin) after the first of them.
		const after = Array.from({ length: 5 }, () => ({ at: 1100 }));
		for (const start of after) {
			expect(model.waitMs(1100)).toBe(0);
			model.started(start);
		}
		expect(model.waitMs(1100)).toBe(1010);
		// A request started before the refusal and answered fine after it got through in that window too.
		model.fine(late, 1150);
		expect(model.waitMs(1150)).toBe(0);
	});

	it('a share grows by a quarter once a window of its requests was answered fine; a step that draws a throttle is taken back, and the next waits for two windows, four after a second refused in a row and no more after a third', () => {
		const model = aShareOfEight();
		const startsAt = (at: number) => startsAtOnce(model, at);
		expect(startsAt(1100)).toBe(8);
		// Those 8 answered fine: a window of fine answers, so 10 from now on.
		fines(model, 8, 2200, 80);
		expect(startsAt(4000)).toBe(10);
		// Refused at 10: back to the 8 that held.
		model.throttled(4100, 1000, 1000);
		expect(startsAt(6000)).toBe(8);
		// One window of fine answers is no longer enough for a step; two are.
		fines(model, 8, 8000, 80);
		expect(startsAt(10_000)).toBe(8);
		fines(model, 8, 12_000, 80);
		expect(startsAt(14_000)).toBe(10);
		// The step to 10, started at `stepAt`, refused again: the next waits twice as long, four windows,
		// and no longer after that.
		for (const stepAt of [14_000, 24_000]) {
			model.throttled(stepAt + 100, 1000, 1000);
			for (let window = 1; window <= 3; window++) fines(model, 8, stepAt + window * 2000, 80);
			expect(startsAt(stepAt + 8000)).toBe(8);
			fines(model, 8, stepAt + 8000, 80);
			expect(startsAt(stepAt + 10_000)).toBe(10);
		}
	});

	it('a share waits two windows again after a refused step once a step held', () => {
		const model = aShareOfEight();
		const startsAt = (at: number) => startsAtOnce(model, at);
		// A step (10), refused: back to 8 for two windows; then a step (10) that holds a window.
		fines(model, 8, 2200, 80);
		model.throttled(4100, 1000, 1000);
		fines(model, 8, 6000, 80);
		fines(model, 8, 8000, 80);
		fines(model, 10, 10_000, 80);
		expect(startsAt(12_000)).toBe(15);
		// Its next step (15) refused: back to 10, and the step after waits two windows, not four.
		model.throttled(12_100, 1000, 1000);
		fines(model, 10, 14_000, 80);
		expect(startsAt(16_000)).toBe(10);
		fines(model, 10, 16_000, 80);
		expect(startsAt(18_000)).toBe(12);
	});

	it('a share whose steps hold takes larger ones: a quarter, then half of it; a throttle makes the next a quarter', () => {
		const model = aShareOfEight();
		const startsAt = (at: number) => startsAtOnce(model, at);
		fines(model, 8, 1100, 80);
		expect(startsAt(3000)).toBe(10);
		fines(model, 10, 4000, 80);
		expect(startsAt(6000)).toBe(15);
		fines(model, 15, 7000, 80);
		expect(startsAt(9000)).toBe(22);
		// Refused at 22: back to the 15 that held, and after two windows a step of a quarter again.
		model.throttled(9100, 1000, 1000);
		fines(model, 15, 11_000, 80);
		fines(model, 15, 13_000, 80);
		expect(startsAt(15_000)).toBe(18);
	});

	it('a share halved below what held before its step and refused again: half again, not back to what held', () => {
		const model = aShareOfEight();
		// A step (10), refused: back to the 8 that held; then refused at a window's first request twice.
		fines(model, 8, 1100, 80);
		refusal(model, 2200);
		model.throttled(2200, 1000, 1000);
		refusal(model, 3300);
		model.throttled(3300, 1000, 1000);
		expect(startsAtOnce(model, 4400)).toBe(4);
		refusal(model, 5500);
		model.throttled(5500, 1000, 1000);
		expect(startsAtOnce(model, 6600)).toBe(2);
	});

	it.each([12, 11])(
		'told a window that fell to half of the most it held (%i), rounded up: a share, which grows back a step a window',
		(most) => {
			// As many at once, then refused at a window's first request, told to wait: 6 at once.
			const model = new LimitModel(0);
			fines(model, most, 0);
			model.throttled(100, 1000, 1000);
			refusal(model, 1100);
			model.throttled(1100, 1000, 1000);
			expect(model.learned).toMatchObject({ capacity: 6 });
			const startsAt = (at: number) => startsAtOnce(model, at);
			fines(model, 6, 2200);
			expect(startsAt(4000)).toBe(7);
			fines(model, 7, 5000);
			expect(startsAt(7000)).toBe(10);
		},
	);

	it.each([
		{ windowsHeld: 0, share: false },
		{ windowsHeld: 1, share: false },
		{ windowsHeld: 2, share: true },
	])(
		'counts a told window raised by late answers as held after two windows of fine answers at it: $windowsHeld, then halved, a share: $share',
		({ windowsHeld, share }) => {
			// 10 of a burst of 12 answered fine before the Retry-After, 2 after it: 12 at once, held or not.
			const model = new LimitModel(0);
			const burst = Array.from({ length: 12 }, () => ({ at: 0 }));
			for (const start of burst) model.started(start);
			for (const start of burst.slice(0, 10)) model.fine(start, 50);
			model.throttled(100, 1000, 1000);
			for (const start of burst.slice(10)) model.fine(start, 150);
			let at = 1100;
			for (let window = 0; window < windowsHeld; window++, at += 1100) fines(model, 12, at);
			// Refused at a window's first request: 12 still after windows that got 12 through, then 6.
			for (let refused = 0; refused < (windowsHeld > 0 ? 2 : 1); refused++, at += 1100) {
				refusal(model, at);
				model.throttled(at, 1000, 1000);
			}
			// Half of 12 is more than half of the 10 that held at first.
			expect(model.learned).toMatchObject({ capacity: 6 });
			fines(model, 6, at);
			expect(startsAtOnce(model, at + 2000)).toBe(share ? 7 : 6);
		},
	);

	it.each([true, false])(
		"counts an earlier run's window as held when LibreBOR told it (told: %s): halved at once, then a share, which grows, only if told",
		(told) => {
			const model = new LimitModel(0, { capacity: 12, windowMs: 1010, told });
			refusal(model, 100);
			model.throttled(100, 1000, 1000);
			fines(model, 6, 1200);
			expect(startsAtOnce(model, 3000)).toBe(told ? 7 : 6);
		},
	);

	it('a share refused again before it took a step, or at what held, keeps that many and its next step as soon', () => {
		const model = aShareOfEight();
		const startsAt = (at: number) => startsAtOnce(model, at);
		expect(startsAt(1100)).toBe(8);
		// Refused at the first request of a window before any step: half as many, as any window.
		model.throttled(1200, 1000, 1000);
		expect(startsAt(3000)).toBe(4);
		// A window of fine answers: a step (5); it draws a throttle, so back to the 4 that held.
		fines(model, 4, 4000, 80);
		expect(startsAt(6000)).toBe(5);
		model.throttled(6100, 1000, 1000);
		expect(startsAt(8000)).toBe(4);
		// Refused again at the 4 that held, at a window's first request: half as many (2), and the next
		// step still after two windows of fine answers (4), not four.
		model.throttled(8100, 1000, 1000);
		expect(startsAt(10_000)).toBe(2);
		fines(model, 4, 11_000, 80);
		expect(startsAt(13_000)).toBe(3);
	});

	it('refused before any fine answer: one at a time, as long as the first fine answer took', () => {
		const model = new LimitModel(0);
		refusal(model, 0);
		model.throttled(0, 1000);
		expect(model.paced).toBe(false);
		fines(model, 1, 1000, 70);
		expect(model.paced).toBe(true);
		model.started({ at: 1100 });
		expect(model.waitMs(1100)).toBe(70);
	});

	it('backs off half a window once enough answers back it, or the last answer before any window', () => {
		const fresh = new LimitModel(0);
		expect(fresh.halfWindowMs(true)).toBeUndefined();
		expect(fresh.tookRequestsThisCycle).toBe(false);
		fines(fresh, 1, 0, 120);
		expect(fresh.tookRequestsThisCycle).toBe(true);
		expect(fresh.halfWindowMs()).toBeUndefined();
		expect(fresh.halfWindowMs(true)).toBe(120);
		const learned = new LimitModel(0, { capacity: 10, windowMs: 1000 });
		expect(learned.halfWindowMs()).toBe(500);
	});
});

describe('a limit that changes under a run', () => {
	it('refused at a window that held, told when: fewer at once, never fewer than half, no sooner than told', () => {
		const model = twelveAtOnce({ told: true });
		fines(model, 2, 1100);
		refusal(model, 1200);
		model.throttled(1200, 2000, 2000);
		expect(model.learned).toMatchObject({ capacity: 6, windowMs: 2010 });
		// Answered fine after the throttle, the requests of its burst raise the capacity: to 12 at most.
		for (let late = 0; late < 3; late++) model.fine({ at: 1150 }, 1300);
		expect(model.learned?.capacity).toBe(6);
		for (let late = 0; late < 10; late++) model.fine({ at: 1150 }, 1300);
		expect(model.learned?.capacity).toBe(12);
	});

	it('refused at a window that held, told when: the answers of its burst that came after count once, from their starts', () => {
		const model = twelveAtOnce({ told: true });
		fines(model, 2, 1100);
		const late = Array.from({ length: 10 }, () => ({ at: 1150 }));
		for (const start of late) model.started(start);
		refusal(model, 1200);
		model.throttled(1200, 2000, 2000);
		for (const start of late) model.fine(start, 1300);
		// 12 started by 1,150 ms, a window of 2,010 ms: all 12 may start again at 3,200 ms.
		expect(model.learned).toMatchObject({ capacity: 12, windowMs: 2010 });
		expect(startsAtOnce(model, 3200)).toBe(12);
	});

	it('told a Retry-After shorter than the window: no sooner than the window, with a margin', () => {
		const model = twelveAtOnce({ told: true });
		fines(model, 8, 1100);
		refusal(model, 1200);
		model.throttled(1200, 300, 300);
		expect(model.learned).toMatchObject({ capacity: 8, windowMs: 1020 });
	});

	it('refused within a burst, not told: fewer at once and slower than before', () => {
		const model = twelveAtOnce({ told: false });
		// 12 a window of 1,400 ms held; then, 8 through and a refusal in the next burst.
		fines(model, 8, 1400);
		model.throttled(1500, 700);
		const { capacity, windowMs } = model.learned ?? {};
		expect(capacity).toBe(8);
		// 20 fine answers over the two cycles (from 0 to the pause's end at 2,200 ms): 1 every 110 ms,
		// slower than 90% of 8 in 1,400 ms.
		expect(windowMs).toBeCloseTo(8 / Math.min((8 / 1400) * 0.9, 20 / 2200), 6);
	});

	it('refused within a burst after few answers: half as fast', () => {
		const model = new LimitModel(0);
		fines(model, 3, 0, 80);
		model.throttled(100, 1000);
		fines(model, 1, 1100, 80);
		model.throttled(1300, 500);
		// One at a time every 80 ms held; refused with 4 answers in two cycles: half of 90% as fast.
		expect(model.halfWindowMs(true)).toBeCloseTo(80 / 0.9, 6);
		expect(model.learned).toBeUndefined();
	});

	it("one at a time at an earlier run's spacing, refused after few answers: a step slower, not half as fast", () => {
		// nginx's 20 r/s: one request every 50 ms held for the last run.
		const model = new LimitModel(0, { capacity: 1, windowMs: 50, recentStarts: [], told: false });
		refusal(model, 0);
		model.throttled(10, 25);
		expect(model.learned?.capacity).toBe(1);
		expect(model.learned?.windowMs).toBeCloseTo(50 / 0.9, 6);
		// A spacing a Retry-After gave (a share of a window others spend) is still halved, and so is
		// one this run measured from one answer.
		const told = new LimitModel(0, { capacity: 1, windowMs: 50, recentStarts: [], told: true });
		refusal(told, 0);
		told.throttled(10, 25);
		expect(told.learned?.windowMs).toBeCloseTo(100 / 0.9, 6);
		const measuredNow = new LimitModel(0);
		fines(measuredNow, 1, 0, 80);
		refusal(measuredNow, 0);
		measuredNow.throttled(80, 1000);
		fines(measuredNow, 1, 1080, 80);
		refusal(measuredNow, 1160);
		measuredNow.throttled(1170, 40);
		expect(measuredNow.halfWindowMs(true)).toBeCloseTo(80 / 0.9, 6);
	});

	it('refused within a burst, not told, after a slow stretch: no faster than LibreBOR let through', () => {
		const model = twelveAtOnce({ told: false });
		fines(model, 8, 1400);
		refusal(model, 5000);
		model.throttled(5000, 700);
		// 20 fine answers from 0 to the pause's end at 5,700 ms: 8 every 2,280 ms.
		expect(model.learned).toMatchObject({ capacity: 8, windowMs: 2280 });
	});

	it('refused within a burst after a first pause with no fine answer: counts from that pause', () => {
		const model = new LimitModel(0);
		refusal(model, 0);
		model.throttled(0, 1000);
		fines(model, 1, 1000, 70);
		for (let answer = 1; answer < 12; answer++) fines(model, 1, 1000 + answer * 70, 70);
		refusal(model, 1900);
		model.throttled(1900, 500);
		// 12 fine answers from the end of the first pause (1,000 ms) to this one's (2,400 ms).
		expect(model.halfWindowMs()).toBeCloseTo(1400 / 12 / 2, 6);
	});

	it('one at a time, then told to wait a second: a share that grows, too small to keep for another run', () => {
		const model = new LimitModel(0);
		fines(model, 3, 0, 80);
		// Too few to measure a burst, and not told: one at a time, as long as an answer took.
		model.throttled(100, 1000);
		fines(model, 1, 1100, 80);
		refusal(model, 1200);
		model.throttled(1200, 1000, 1000);
		expect(model.paced).toBe(true);
		expect(model.learned).toBeUndefined();
		// Not one request a Retry-After (1,010 ms): a window held, and two may start at once.
		fines(model, 1, 2210, 80);
		expect(nextStartAt(model, 2290)).toBe(2290);
	});

	it('refused at the first request of a window, told when: half as many at once', () => {
		const model = twelveAtOnce({ told: true });
		refusal(model, 1100);
		model.throttled(1100, 2000, 2000);
		expect(model.learned).toMatchObject({ capacity: 6, windowMs: 2010 });
	});

	it('refused, told, with no request started since the pause: slower, as many at once', () => {
		const model = twelveAtOnce({ told: true });
		model.throttled(1150, 1000, 1000);
		// 12 fine answers from 0 to the pause's end at 2,150 ms.
		expect(model.learned).toMatchObject({ capacity: 12, windowMs: 2150 });
	});

	it('refused again with too few answers since to tell: the window stays', () => {
		const model = twelveAtOnce({ told: true });
		fines(model, 3, 1100);
		refusal(model, 1200);
		model.throttled(1200, 1000, 1000);
		expect(model.learned).toMatchObject({ capacity: 6, windowMs: 1020 });
		model.throttled(2300, 1000, 1000);
		expect(model.learned).toMatchObject({ capacity: 6, windowMs: 1020 });
		// Two through and refused, not told: 5 answers in two cycles, too few: half of 90% as fast.
		fines(model, 2, 3300);
		refusal(model, 3400);
		model.throttled(3400, 500);
		expect(model.learned?.capacity).toBe(3);
		expect(model.learned?.windowMs).toBeCloseTo(1020 / 0.45, 6);
	});

	it('refused within a burst larger than the window: as many at once as before', () => {
		const model = twelveAtOnce({ told: false });
		fines(model, 11, 1400);
		fines(model, 4, 2900);
		refusal(model, 3000);
		model.throttled(3000, 500);
		expect(model.learned?.capacity).toBe(12);
	});

	it('refused at the first request of a one-at-a-time window, not told: half of 90% as fast', () => {
		const model = new LimitModel(0);
		fines(model, 3, 0, 80);
		model.throttled(100, 1000);
		refusal(model, 1100);
		model.throttled(1100, 500);
		expect(model.halfWindowMs(true)).toBeCloseTo(80 / 0.45 / 2, 6);
	});

	it('refused while probing: back to the window that held, and the next probe after two windows of answers', () => {
		const model = twelveAtOnce({ told: false });
		fines(model, 12, 1400);
		fines(model, 3, 2710);
		refusal(model, 2800);
		model.throttled(2800, 500);
		fines(model, 9, 3300);
		fines(model, 12, 4750);
		// 21 fine answers since: the window of 1,400 ms still (the next probe comes at 24).
		expect(nextStartAt(model, 4800)).toBe(4800 + 1400);
	});

	it('told a window after measuring one: probes it only after two windows of answers, eight times', () => {
		const model = twelveAtOnce({ told: false });
		fines(model, 2, 1400);
		refusal(model, 1500);
		model.throttled(1500, 1000, 1000);
		expect(model.learned).toMatchObject({ capacity: 6, windowMs: 1410 });
		for (let window = 0; window < 8; window++) fines(model, 6, 2500 + window * 1500);
		expect(nextStartAt(model, 13_050)).toBe(13_050 + 1410);
		// Eight times two windows held: the probe asks for a window 10% narrower.
		for (let window = 8; window < 16; window++) fines(model, 6, 2500 + window * 1500);
		expect(model.waitMs(25_050)).toBeCloseTo(1410 * 0.9, 6);
	});

	it('refused at the first request of a window, not told: the window lasts until LibreBOR takes requests again', () => {
		// Refused at 2,850 ms, then at the first request after each pause until 4,600 ms.
		const model = refusedAtTheWindowsFirstRequest();
		refusal(model, 4450);
		model.throttled(4450, 150);
		fines(model, 12, 4600);
		// The window began with the burst at 1,400 (counted from its answers at 1,450): 3,150 ms long.
		expect(model.learned).toMatchObject({ capacity: 12, windowMs: 3150 });
		// Refused 3,000 ms into it: the next window tried is halfway between the two, not 10% narrower.
		expect(nextStartAt(model, 4650)).toBe(4650 + 3075);
	});

	it('refused and let through in the same millisecond, not told: the window measured to the refusal is probed afresh, not taken as too narrow', () => {
		const model = aProbeRefused();
		// Two requests start at 3,350 ms: LibreBOR refuses the first and takes the second.
		const letThrough = { at: 3350 };
		model.started(letThrough);
		refusal(model, 3350);
		model.throttled(3350, 600);
		model.fine(letThrough, 3400);
		// From the burst's answers at 1,450 ms to 3,350 ms: the refusal lies at the window's very end.
		expect(model.learned?.windowMs).toBe(1900);
		fines(model, 11, 3400);
		// Twelve fine answers held it: a probe tries a window 10% narrower, as after any fresh measure.
		expect(nextStartAt(model, 3450)).toBe(3400 + 1710);
	});

	it('refused once at the first request of a window, not told: the window counts from the oldest start it holds', () => {
		const model = refusedAtTheWindowsFirstRequest();
		fines(model, 12, 3950);
		// The burst of 1,400 ms is counted from its answers at 1,450 ms: 2,500 ms until 3,950 ms.
		expect(model.learned?.windowMs).toBe(2500);
	});

	it('refused at the first request of a learned window that holds no start: waits for LibreBOR, still paced', () => {
		const model = new LimitModel(0, { capacity: 5, windowMs: 1000 });
		refusal(model, 0);
		model.throttled(0, 500);
		fines(model, 1, 500);
		// Nothing tells when the refused window began: the learned one stays, from the answer at 550 ms.
		expect(startsAtOnce(model, 600)).toBe(4);
		expect(nextStartAt(model, 600)).toBe(1550);
	});
});

describe('what a run starts from', () => {
	it('counts the starts of earlier runs that are still in the window, none from the future', () => {
		const recentStarts = [8000, 9000, 9500, 9999, 10_000, 10_001];
		const model = new LimitModel(10_000, { capacity: 3, windowMs: 1000, recentStarts });
		expect(model.paced).toBe(true);
		expect(model.waitMs(10_000)).toBe(500);
		expect(model.learned).toEqual({
			capacity: 3,
			windowMs: 1000,
			recentStarts: [9500, 9999, 10_000],
			told: false,
		});
		const roomy = new LimitModel(10_000, { capacity: 5, windowMs: 1000, recentStarts });
		expect(roomy.learned?.recentStarts).toEqual([9500, 9999, 10_000]);
		expect(roomy.waitMs(10_000)).toBe(0);
	});

	it('starts knowing nothing from a learned limit without a capacity or a window', () => {
		for (const learned of [{ windowMs: 1000 }, { capacity: 3 }, { inFlight: 20 }, undefined]) {
			const model = new LimitModel(0, learned);
			expect(model.paced).toBe(false);
			expect(model.learned).toBeUndefined();
			expect(model.waitMs(0)).toBe(0);
		}
	});

	it('paces from the start with a learned window, and probes it only after eight windows held', () => {
		const model = new LimitModel(0, { capacity: 8, windowMs: 1000 });
		for (let window = 0; window < 7; window++) fines(model, 8, window * 1000);
		expect(nextStartAt(model, 6050)).toBe(7050);
		fines(model, 8, 7000);
		expect(nextStartAt(model, 7050)).toBe(7950);
		expect(model.learned?.windowMs).toBe(1000);
	});

	it('probes a window an earlier run was told only after sixteen windows held, as that run would', () => {
		const model = new LimitModel(0, { capacity: 8, windowMs: 1000, told: true });
		for (let window = 0; window < 8; window++) fines(model, 8, window * 1000);
		// A probe that fails costs a whole Retry-After: not after eight windows, as an untold one.
		expect(nextStartAt(model, 7050)).toBe(8050);
		for (let window = 8; window < 16; window++) fines(model, 8, window * 1000);
		expect(nextStartAt(model, 15_050)).toBe(15_950);
		expect(model.learned?.told).toBe(true);
	});
});

/** Twelve at once, told a Retry-After of 1 s; at 1,100 ms ten of the next window's through, one refused. */
function tenOfTheNextWindow(): LimitModel {
	const model = twelveAtOnce({ told: true });
	fines(model, 10, 1100);
	refusal(model, 1100);
	model.throttled(1150, 1000, 1000);
	return model;
}

/**
 * Twelve at once, told a Retry-After of 1 s; at 1,100 ms ten of the next window's got through and
 * one was refused: 10 a window of 1,020 ms, fewer than the first burst got through. Then a window
 * of ten answered fine (at 2,250 ms), and the next window's starts, at 3,270 ms, fill it.
 */
function fewerThanTheFirstBurst(): LimitModel {
	const model = tenOfTheNextWindow();
	expect(model.learned).toMatchObject({ capacity: 10, windowMs: 1020 });
	fines(model, 10, 2200);
	expect(startsAtOnce(model, 3270)).toBe(10);
	return model;
}

/** `fewerThanTheFirstBurst`, and its trial, started at 3,372 ms (a refill of 102 ms later), unanswered. */
function aTrialOut(): { model: LimitModel; trial: PacedStart } {
	const model = fewerThanTheFirstBurst();
	const trial = { at: 3372 };
	model.started(trial);
	return { model, trial };
}

/** `aTrialOut`, the trial let through. */
function aBucketConfirmed(): LimitModel {
	const { model, trial } = aTrialOut();
	model.fine(trial, 3422);
	return model;
}

describe('a limiter that refills as it goes (a token bucket)', () => {
	it('tries one request a refill after a full window when the first burst got more through than the window holds', () => {
		const model = fewerThanTheFirstBurst();
		// A sliding log would wait for the window: 3,270 + 1,020 ms.
		expect(nextStartAt(model, 3270)).toBe(3372);
		model.started({ at: 3372 });
		expect(model.learned?.refill).toBe('possible');
		// The others look again a refill later while the trial is out, and none goes as a second trial.
		expect(nextStartAt(model, 3372)).toBe(3474);
		expect(nextStartAt(model, 3474)).toBe(3576);
	});

	it('tries no refill before a window was answered fine since the last pause: its burst may be over the limit', () => {
		const model = tenOfTheNextWindow();
		expect(startsAtOnce(model, 2200)).toBe(10);
		expect(nextStartAt(model, 2200)).toBe(3220);
	});

	it('paces one request a refill once the trial got through, and says so to the next run', () => {
		const model = aBucketConfirmed();
		// A window's worth started in the last window: the bucket holds no token at 3,422 ms, and
		// refills one every 102 ms.
		expect(nextStartAt(model, 3422)).toBe(3524);
		model.started({ at: 3524 });
		expect(nextStartAt(model, 3524)).toBe(3626);
		// Nothing started for a window: the bucket is full again, no fuller.
		expect(startsAtOnce(model, 4800)).toBe(10);
		expect(model.learned?.refill).toBe('confirmed');
	});

	it('counts the bucket from the starts of the last window when it begins to pace: full after a pause', () => {
		const model = aBucketConfirmed();
		expect(startsAtOnce(model, 4500)).toBe(10);
	});

	it('probes no narrower window while the bucket paces: 400 requests, one a refill', () => {
		const model = aBucketConfirmed();
		let time = 3422;
		for (let request = 0; request < 400; request++) {
			time = nextStartAt(model, time);
			fines(model, 1, time);
		}
		expect(time).toBe(3524 + 399 * 102);
	});

	it("keeps the window that held when the trial is refused (a sliding log's), and tries no more", () => {
		const { model, trial } = aTrialOut();
		model.refused(trial);
		model.throttled(3372, 1000, 1000);
		expect(model.learned).toMatchObject({ capacity: 10, windowMs: 1020, refill: 'ruledOut' });
		expect(startsAtOnce(model, 4372)).toBe(10);
		expect(nextStartAt(model, 4372)).toBe(5392);
	});

	it("forgets a trial another request's throttle overtook: its answer tells nothing, and the next throttle is measured", () => {
		const { model, trial } = aTrialOut();
		// Another request's refusal began a pause; the trial's came within it, drawing no throttle.
		refusal(model, 3372);
		model.throttled(3400, 1000, 1000);
		model.refused(trial);
		expect(model.learned?.refill).toBe('possible');
		// Five through after the pause, then refused, told 2 s: five at once, no sooner than told.
		fines(model, 5, 4420);
		refusal(model, 4500);
		model.throttled(4500, 2000, 2000);
		expect(model.learned).toMatchObject({ capacity: 5, windowMs: 2010 });
	});

	it("takes a trial answered fine after another request's throttle for nothing, and tries again once a window held", () => {
		const { model, trial } = aTrialOut();
		refusal(model, 3372);
		model.throttled(3380, 1000, 1000);
		model.fine(trial, 3422);
		expect(model.learned).toMatchObject({ windowMs: 1030, refill: 'possible' });
		fines(model, 10, 4420);
		expect(startsAtOnce(model, 5500)).toBe(10);
		expect(nextStartAt(model, 5500)).toBe(5603);
		fines(model, 1, 5603);
		expect(model.learned?.refill).toBe('confirmed');
	});

	it('tries the refill only right after the window filled: later, a refusal would cost more than the window waits', () => {
		const model = fewerThanTheFirstBurst();
		expect(nextStartAt(model, 3474)).toBe(3474);
		expect(nextStartAt(model, 3475)).toBe(4290);
	});

	it('tries again once a window passed without an answer to the trial (a server error, a lost connection)', () => {
		const { model } = aTrialOut();
		// The window's ten and the trial: nine may start at 4,290 ms, the tenth when the trial's start left.
		expect(startsAtOnce(model, 4290)).toBe(9);
		expect(startsAtOnce(model, 4392)).toBe(1);
		expect(nextStartAt(model, 4400)).toBe(4494);
		fines(model, 1, 4494);
		expect(model.learned?.refill).toBe('confirmed');
	});

	it('tries no refill of a window it finds a share of one others spend too', () => {
		const { model } = aTrialOut();
		refusal(model, 3372);
		model.throttled(3380, 1000, 1000);
		// Five through after the pause before LibreBOR told the run to wait: half of what held, or less.
		fines(model, 5, 4420);
		refusal(model, 4420);
		model.throttled(4470, 1000, 1000);
		expect(model.learned).toMatchObject({ capacity: 5 });
		expect(model.learned?.refill).toBeUndefined();
		fines(model, 5, 5480);
		expect(model.learned?.refill).toBeUndefined();
	});

	it('keeps a refill ruled out when the window turns out a share', () => {
		const { model, trial } = aTrialOut();
		model.refused(trial);
		model.throttled(3372, 1000, 1000);
		fines(model, 5, 4420);
		refusal(model, 4420);
		model.throttled(4470, 1000, 1000);
		expect(model.learned).toMatchObject({ capacity: 5, refill: 'ruledOut' });
	});

	it('goes back to the window that held when a request paced as a bucket is refused', () => {
		const model = aBucketConfirmed();
		refusal(model, 3524);
		model.throttled(3524, 1000, 1000);
		expect(model.learned).toMatchObject({ capacity: 10, windowMs: 1020, refill: 'ruledOut' });
		expect(startsAtOnce(model, 4524)).toBe(10);
		expect(nextStartAt(model, 4524)).toBe(5544);
	});

	it('tries no refill when the first burst got no more through than the window holds (a sliding log)', () => {
		const model = twelveAtOnce({ told: true });
		fines(model, 12, 1100);
		expect(startsAtOnce(model, 2160)).toBe(12);
		expect(nextStartAt(model, 2160)).toBe(3170);
		expect(model.learned?.refill).toBeUndefined();
	});

	it("starts a run from an earlier run's confirmed refill: the bucket less that run's starts of the last window", () => {
		const recentStarts = [9000, 9100, 9200, 9300];
		const learned = { capacity: 10, windowMs: 1000, recentStarts, told: true };
		const model = new LimitModel(9500, { ...learned, refill: 'confirmed' });
		expect(startsAtOnce(model, 9500)).toBe(6);
		expect(nextStartAt(model, 9500)).toBe(9600);
		// Without the refill, the window waits for the oldest start to be a window old.
		const window = new LimitModel(9500, learned);
		expect(startsAtOnce(window, 9500)).toBe(6);
		expect(nextStartAt(window, 9500)).toBe(10_000);
	});
});
