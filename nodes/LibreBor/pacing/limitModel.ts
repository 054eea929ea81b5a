import { BucketRefill, type Refill } from './bucketRefill';
import { StartWindow } from './startWindow';
import { MAX_PROBE_SPACING, WindowProbe, type PacedStart } from './windowProbe';
import { WindowShare } from './windowShare';

export type { PacedStart } from './windowProbe';

/** What runs learned of an account's rate limit, for the next run to start from. */
export interface LearnedLimit {
	/** LibreBOR let this many requests through at once, and as many again `windowMs` later. */
	capacity?: number;
	windowMs?: number;
	/** When the requests LibreBOR let through last started, the newest `capacity` at most. */
	recentStarts?: number[];
	/** Whether LibreBOR's Retry-After gave the window: its edges then need two windows of proof. */
	told?: boolean;
	/** Whether the limiter refills as it goes (see bucketRefill.ts). */
	refill?: Refill;
	/** A run had this many requests in flight and no answer was a throttle. */
	inFlight?: number;
}

/** Added to the time LibreBOR asks to wait, for requests that reach it a little earlier than others. */
const WINDOW_MARGIN_MS = 10;
/** The unit limiters such as tastypie count in (see wholeSecondsOf). */
const SECOND_MS = 1000;
/** A window that drew a throttle becomes at least this much slower. */
const SLOWER = 0.9;
/** Fewer fine answers than this say too little about the limit. */
const MIN_FINES = 10;
/**
 * A Retry-After `timesTheBurst` longer than the burst it ended tells of a long window (a minute's,
 * say); so does one of `retryAfterMs` or more, whatever the burst took: its whole seconds are then
 * too few to hide a burst's few seconds (a busy machine's), which a window that forgot them would
 * send again too soon.
 */
const LONG_WINDOW = { timesTheBurst: 20, retryAfterMs: 10_000 } as const;
/** Fine answers kept before the first window is measured, the newest (the most a window holds). */
const MAX_EARLY_FINES = 1000;
/**
 * The spacing of probes from a window LibreBOR told (its Retry-After) or an earlier run held: a
 * probe that fails costs a whole Retry-After, at least a second, which a window of a second or so
 * cannot make up for often.
 */
const RARE_PROBES = MAX_PROBE_SPACING / 2;
/**
 * A told window held once as many fine answers as this many windows of it let through came in a
 * row since the last pause; the first, once its burst's fine answers (10 at least) came before
 * LibreBOR's first Retry-After; an earlier run's, as it learned it. Late answers of a burst
 * LibreBOR cut short raise a window without its holding. (The count runs from the last pause, over
 * any steps a share took within it: only a share, which it already is, grows within a cycle.)
 */
const WINDOWS_TO_HOLD = 2;

/** A stretch between two pauses: when its first request started, and how many answers were fine. */
interface Cycle {
	firstStartAt: number | undefined;
	fines: number;
}

/**
 * The account's limit as the run sees it: a window of starts (see startWindow.ts), measured at the
 * first throttle and corrected at later ones, and probed for a higher limit (windowProbe.ts). At the
 * first throttle, the fine answers so far tell how many LibreBOR lets through at once, and the
 * Retry-After how soon it lets as many through again (without one: the time until the pause ends).
 * When LibreBOR refuses a window's first request and says nothing of when to come back, the window
 * is as long as it took until a request got through again. A throttle at a window that held means
 * the limit fell: the window is measured again, from what LibreBOR told (a Retry-After) or from the
 * fine answers of the last two cycles (a cycle runs from a pause to the next).
 */
export class LimitModel {
	private window: StartWindow | undefined;
	private probe = new WindowProbe();
	private cycle: Cycle = { firstStartAt: undefined, fines: 0 };
	private lastCycle: Cycle = { firstStartAt: undefined, fines: 0 };
	private cycleStartedAt: number;
	/**
	 * Set when a window's first request was refused: the start of the window it was to follow, and
	 * the last request refused while waiting so (the window is longer than from then).
	 */
	private waiting: { since: number; refusedAt: number | undefined } | undefined;
	private lastRefusedAt: number | undefined;
	/** Whether LibreBOR's Retry-After gave the window (its edges are then worth two windows of proof). */
	private told: boolean;
	/** Fine answers the window rests on, to keep only a window worth keeping. */
	private evidence = 0;
	/** The time the last fine answer took, for a limit that lets only one request through at once. */
	private lastAnswerMs = 0;
	/** Throttled before any window could be measured. */
	private throttledUnmeasured = false;
	/**
	 * Set when a throttle measured the window's capacity from the fine answers so far: LibreBOR
	 * refuses sooner than it answers, so requests started before that throttle and answered fine
	 * after it got through in the same burst, and each raises the capacity, up to `upTo`.
	 */
	private lateFines:
		| { before: number; counted: number; upTo: number; recorded: boolean; first?: true }
		| undefined;
	/** When the fine answers came before the first window was measured (the newest MAX_EARLY_FINES). */
	private earlyFines: number[] = [];
	/** Set when the window is a share of one others spend too (see firstMeasure and toldAgain). */
	private share: WindowShare | undefined;
	/** The most requests a told window let through at once and held (see WINDOWS_TO_HOLD). */
	private mostHeld = 0;
	/** The requests of the run's first burst LibreBOR let through, late answers included, when it told the window. */
	private firstBurst = 0;
	private refill: BucketRefill;

	constructor(startedAt: number, learned?: LearnedLimit) {
		this.cycleStartedAt = startedAt;
		const { capacity, windowMs, recentStarts = [], told = false, refill } = learned ?? {};
		this.told = told;
		this.refill = new BucketRefill(refill);
		if (capacity && windowMs) {
			// Starts of earlier runs still count while their window lasts.
			const recent = recentStarts.filter((at) => at > startedAt - windowMs && at <= startedAt);
			this.window = new StartWindow(capacity, windowMs, recent);
			this.probe = new WindowProbe(RARE_PROBES, windowMs);
			this.evidence = MIN_FINES;
			if (told) this.held(capacity);
		}
	}

	/** Whether a window paces the run (learned now or by an earlier run). */
	get paced(): boolean {
		return this.window !== undefined;
	}

	/** What to hand the next run; undefined when this run has nothing worth keeping. */
	get learned(): LearnedLimit | undefined {
		if (!this.window || this.evidence < MIN_FINES) return undefined;
		return {
			capacity: this.window.capacity,
			windowMs: this.probe.heldMs ?? this.window.windowMs,
			recentStarts: this.window.recentStarts,
			told: this.told,
			...(this.refill.state && { refill: this.refill.state }),
		};
	}

	/**
	 * The wait after a throttle that came without a Retry-After: half a window, once enough fine
	 * answers back the window; with `tookRequests` (a fine answer has just shown that LibreBOR
	 * takes requests), once there is any window, or else the time the last answer took.
	 */
	halfWindowMs(tookRequests = false): number | undefined {
		if (!this.window) return tookRequests && this.lastAnswerMs > 0 ? this.lastAnswerMs : undefined;
		if (!tookRequests && this.evidence < MIN_FINES) return undefined;
		return this.window.windowMs / 2;
	}

	/** Whether any answer was fine since the last pause ended. */
	get tookRequestsThisCycle(): boolean {
		return this.cycle.fines > 0;
	}

	/**
	 * Milliseconds until the window lets one more request start; `held`: one that must not be the
	 * request LibreBOR refuses (an order, sent once), which waits until the account's requests have
	 * left the window that held (neither a probe's narrower one nor a share's step): limiters that
	 * count a request once answered (Kong, tastypie) let a burst past their count, and refuse a
	 * request sent after it into what the learned window counts as room. A window LibreBOR did not
	 * tell is counted to its whole seconds for it (see wholeSecondsOf).
	 */
	waitMs(time: number, held = false): number {
		const { window } = this;
		if (!window) return 0;
		if (!held) {
			const windowWait = this.probe.waitMs(window, time);
			return this.refill.waitMs(window, time, windowWait, this.windowHeldThisCycle(window));
		}
		const measuredMs = Math.max(window.windowMs, this.probe.heldMs ?? 0);
		const heldMs = this.told ? measuredMs : this.wholeSecondsOf(measuredMs);
		const newest = window.newestStart;
		return newest === undefined ? 0 : Math.max(0, newest + heldMs - time);
	}

	/**
	 * A limiter that counts whole seconds and says nothing of when to come back (tastypie) counts a
	 * request until T + 1 seconds after the second it was answered in, at most, its window being T
	 * whole seconds. The windows that held were measured at the phases runs happened to try, and
	 * from here, up to a round trip (the last answer's time) shorter than LibreBOR saw them. A window
	 * still under a second with that round trip is no such limiter's (nginx's spacing, say).
	 */
	private wholeSecondsOf(measuredMs: number): number {
		const seenMs = measuredMs + this.lastAnswerMs;
		if (seenMs < SECOND_MS) return measuredMs;
		return (Math.floor(seenMs / SECOND_MS) + 1) * SECOND_MS;
	}

	started(start: PacedStart): void {
		this.cycle.firstStartAt ??= start.at;
		if (!this.window) return;
		if (this.refill.state === undefined && !this.probe.active && this.refillPossible(this.window))
			this.refill.state = 'possible';
		if (!this.refill.engaged) this.probe.started(this.window, start);
		const mayTry = !start.sentOnce && this.windowHeldThisCycle(this.window);
		this.refill.started(this.window, start, mayTry);
		this.window.record(start.at, start);
	}

	/** LibreBOR refused the request: the limits modelled do not count it. */
	refused(start: PacedStart): void {
		this.window?.forget(start);
		this.refill.refused(start);
		this.lastRefusedAt = start.at;
	}

	/** LibreBOR answered the request fine at `answeredAt`. */
	fine(start: PacedStart, answeredAt: number): void {
		const tookMs = answeredAt - start.at;
		this.lastAnswerMs = tookMs;
		this.refill.fine(start);
		const { window, lateFines } = this;
		if (window && lateFines && start.at <= lateFines.before) {
			lateFines.counted++;
			if (lateFines.first && this.told) this.firstBurst = lateFines.counted;
			window.capacity = Math.max(window.capacity, Math.min(lateFines.upTo, lateFines.counted));
			if (lateFines.recorded) window.record(answeredAt);
			this.evidence++;
			return;
		}
		this.cycle.fines++;
		if (window && this.told && this.cycle.fines >= WINDOWS_TO_HOLD * window.capacity)
			this.held(window.capacity);
		// A burst reaches LibreBOR spread over the time its connections take, another burst spread
		// otherwise: counted from their answers, the next burst follows the last one's admissions.
		// One request at a time keeps its spacing from the starts, which probing fits to the limit.
		if (window && window.capacity > 1) window.settle(start, answeredAt);
		if (!window) {
			this.earlyFines.push(answeredAt);
			if (this.earlyFines.length > MAX_EARLY_FINES) this.earlyFines.shift();
			// Refused before the first fine answer: one request at a time, one per answer.
			if (this.throttledUnmeasured) this.measure(new StartWindow(1, tookMs), 1);
			return;
		}
		this.evidence++;
		const { waiting } = this;
		if (waiting) {
			// LibreBOR took requests again: the window is at most that long, and longer than until
			// the last request it refused; the next probe aims between the two.
			window.windowMs = Math.max(window.windowMs, start.at - waiting.since);
			const refusedAfter = (waiting.refusedAt ?? waiting.since) - waiting.since;
			this.measure(window, this.evidence);
			if (refusedAfter > 0 && refusedAfter < window.windowMs)
				this.probe = new WindowProbe(1, undefined, refusedAfter);
			this.waiting = undefined;
		}
		this.share?.fine(window);
		if (!start.sentOnce && !this.refill.engaged) this.probe.fine(window, start, this.told);
	}

	/**
	 * The first throttle of a pause that ends `pauseMs` after `time`; `retryAfterMs` is what
	 * LibreBOR asked for, when it said.
	 */
	throttled(time: number, pauseMs: number, retryAfterMs?: number): void {
		const { cycle, lastCycle } = this;
		const pauseEndsAt = time + pauseMs;
		const cycleMs = Math.max(1, time - this.cycleStartedAt) + pauseMs;
		const twoCycles = {
			ms: pauseEndsAt - (lastCycle.firstStartAt ?? this.cycleStartedAt),
			fines: lastCycle.fines + cycle.fines,
		};
		if (cycle.fines > 0) this.lastCycle = cycle;
		this.cycle = { firstStartAt: undefined, fines: 0 };
		this.cycleStartedAt = pauseEndsAt;
		this.probe.interrupted();
		const { window } = this;
		if (window) this.share?.throttled(window);
		const refill = this.refill.throttled();
		if (!window) this.firstMeasure(time, cycle, cycleMs, retryAfterMs);
		// The trial's refusal tells nothing of the window; one while the bucket paced ends that: the
		// window that held paces again, and its next burst tells whether the limit fell.
		else if (refill) return;
		else if (this.probe.active) this.probe.failed(window);
		else if (cycle.fines === 0 && retryAfterMs === undefined && window.capacity > 1) {
			// A window's first request refused: wait for LibreBOR to take requests again.
			const since = this.waiting?.since ?? window.oldestStart ?? this.lastCycle.firstStartAt;
			if (since !== undefined) this.waiting = { since, refusedAt: this.lastRefusedAt };
		} else if (retryAfterMs !== undefined && cycle.firstStartAt !== undefined) {
			this.toldAgain(time, window, cycle.fines, retryAfterMs);
		} else if (cycle.fines > 0 || twoCycles.fines >= MIN_FINES || window.capacity === 1) {
			// Refused within a burst: LibreBOR lets fewer through at once (or not as soon: the rate
			// below says), but never fewer than half as many on one refusal.
			if (cycle.fines > 0 && cycle.fines < window.capacity)
				window.capacity = Math.max(cycle.fines, Math.ceil(window.capacity / 2));
			// At most the rate LibreBOR let through over the last two cycles, and slower than before;
			// half as fast when too few answers were fine to tell, but for an even spacing that enough
			// answers back (an earlier run's, for example) and no Retry-After gave: requests sent at
			// that spacing reach LibreBOR closer together when their connections take longer to
			// open, as a run's first ones do.
			const slower = (window.capacity / window.windowMs) * SLOWER;
			const heldSpacing = window.capacity === 1 && this.evidence >= MIN_FINES && !this.told;
			const rate =
				twoCycles.fines >= MIN_FINES
					? Math.min(slower, twoCycles.fines / twoCycles.ms)
					: heldSpacing
						? slower
						: slower / 2;
			window.windowMs = window.capacity / rate;
			this.measure(window, Math.max(twoCycles.fines, Math.min(this.evidence, MIN_FINES)));
		}
		// Refused again with nothing through since the last pause: LibreBOR may be struggling rather
		// than limiting; the pauses deal with it, and the window stays.
	}

	/**
	 * Refused at a window that held, LibreBOR saying when to come back: as many at once as it let
	 * through since the last pause (its answers still on their way included), at most, and no
	 * sooner than it said (nor than before, with a margin: a Retry-After asked for late in a window
	 * is shorter than the window).
	 */
	private toldAgain(time: number, window: StartWindow, fines: number, retryAfterMs: number) {
		const held = window.capacity;
		// Never fewer than half as many on one refusal, as when LibreBOR does not say.
		window.capacity = Math.min(held, Math.max(fines, Math.ceil(held / 2)));
		window.windowMs = Math.max(retryAfterMs + WINDOW_MARGIN_MS, window.windowMs + WINDOW_MARGIN_MS);
		this.measure(window, Math.max(fines, Math.min(this.evidence, MIN_FINES)), RARE_PROBES);
		this.lateFines = { before: time, counted: fines, upTo: held, recorded: false };
		this.told = true;
		if (this.fellToAShare(window.capacity)) {
			this.share ??= new WindowShare();
			this.refill.withdraw();
		}
	}

	/**
	 * So few at once in a window LibreBOR told: one request, or half of the most it held or less
	 * (rounded up, as one refusal halves it): likelier a share of one others spend too (the
	 * account's executions in other processes) than a lower limit, or a small limit. A share grows a
	 * step a window (windowShare.ts), where probing a told window is rare: one request a Retry-After
	 * would crawl at a second each under a limit of 20 a second.
	 */
	private fellToAShare(capacity: number): boolean {
		return capacity === 1 || capacity <= Math.ceil(this.mostHeld / 2);
	}

	/**
	 * Worth trying the window's limiter as a token bucket: a told window (only such a first burst is
	 * counted) of the run's own whose first burst got more through at once than it does now (not a
	 * share, whose others took the rest; a told window of one request is one).
	 */
	private refillPossible(window: StartWindow): boolean {
		return !this.share && this.firstBurst > window.capacity;
	}

	/**
	 * Whether a window's worth of answers came fine since the last pause: its burst is within the
	 * limit, so a request a refill after the next is a fair trial of the refill.
	 */
	private windowHeldThisCycle(window: StartWindow): boolean {
		return this.cycle.fines >= window.capacity;
	}

	/** A told window held `capacity` at once. */
	private held(capacity: number) {
		this.mostHeld = Math.max(this.mostHeld, capacity);
	}

	/**
	 * The first window, at the first throttle: LibreBOR lets as many through again once the time it
	 * asked for has passed. A Retry-After many times longer than the burst that met it (a minute's
	 * window filled in a second or two) counts from the oldest request LibreBOR let through, not from
	 * the throttle: the window is longer by up to that burst, and the burst's requests leave it one by
	 * one, as they were answered, not all at the end of the pause.
	 */
	private firstMeasure(
		time: number,
		cycle: Cycle,
		cycleMs: number,
		retryAfterMs: number | undefined,
	) {
		const { fines } = cycle;
		const burstMs = time - (cycle.firstStartAt ?? time);
		const long =
			retryAfterMs !== undefined &&
			(retryAfterMs >= LONG_WINDOW.retryAfterMs ||
				burstMs * LONG_WINDOW.timesTheBurst <= retryAfterMs);
		const windowMs =
			retryAfterMs === undefined ? cycleMs : retryAfterMs + WINDOW_MARGIN_MS + (long ? burstMs : 0);
		// A window LibreBOR said is worth few probes: each that fails costs a whole Retry-After.
		this.told = retryAfterMs !== undefined;
		const spacing = this.told ? RARE_PROBES : 1;
		// Few fine answers and no Retry-After tell nothing of a burst: one request at a time then, one
		// per answer.
		if (fines >= MIN_FINES) {
			if (this.told) this.held(fines);
			const burst = long ? this.earlyFines : [];
			this.measure(new StartWindow(fines, windowMs, burst), fines, spacing);
			this.lateFines = {
				before: time,
				counted: fines,
				upTo: Infinity,
				recorded: long,
				first: true,
			};
			if (this.told) this.firstBurst = fines;
		} else if (fines > 0 && retryAfterMs !== undefined) {
			// LibreBOR let these through and said when it takes more: as many again then, at least.
			// Few before a Retry-After tell of a window others spend too (the account's executions in
			// other processes, queue-mode workers): this run's share, raised by its late answers.
			this.measure(new StartWindow(fines, windowMs), fines, spacing);
			this.lateFines = { before: time, counted: fines, upTo: Infinity, recorded: false };
			this.share = new WindowShare();
		} else if (fines > 0 && this.lastAnswerMs > 0)
			this.measure(new StartWindow(1, this.lastAnswerMs), fines, spacing);
		else this.throttledUnmeasured = true;
		this.earlyFines = [];
	}

	/** A window measured afresh, resting on `evidence` fine answers, probed after `spacing` windows held. */
	private measure(window: StartWindow, evidence: number, spacing = 1) {
		this.window = window;
		this.lateFines = undefined;
		this.probe = new WindowProbe(spacing);
		this.evidence = evidence;
	}
}
