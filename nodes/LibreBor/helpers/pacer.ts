import { now, sleep } from './clock';
import { InFlightLimit, INITIAL_IN_FLIGHT } from './inFlightLimit';
import { recallLimit, rememberLimit, type LimitMemory } from './learnedLimits';
import { LimitModel, type LearnedLimit, type PacedStart } from './limitModel';

/** "Parallel Requests" by default: chosen from the network benchmark (see BENCHMARKS.md). */
export const DEFAULT_PARALLEL_REQUESTS = 50;
export const DEFAULT_BUDGET_MS = 5 * 60_000;
export const DEFAULT_PACING: PacerSettings = {
	ceiling: DEFAULT_PARALLEL_REQUESTS,
	budgetMs: DEFAULT_BUDGET_MS,
};
/** For the operations that run their items one after another: lists, and orders, which spend money. */
export const ONE_ITEM_AT_A_TIME: PacerSettings = { ceiling: 1, budgetMs: DEFAULT_BUDGET_MS };

export interface PacerSettings {
	/** The most requests in flight at once ("Parallel Requests"). */
	ceiling: number;
	/** How long the run may spend waiting out 429 and 503 answers before items fail. */
	budgetMs: number;
}

/** How a paced request ended, for the pacer to adjust the number in flight. */
export type PacedOutcome =
	| { kind: 'fine' }
	| { kind: 'throttled'; status: number; retryAfterMs?: number }
	| { kind: 'other' };

/**
 * A run with no fine answer for this long, or over this many pauses in a row, stops trying; when
 * those pauses are the short ones of a known window, only once it has had no fine answer for the
 * shorter time too (a window of tens of seconds without Retry-After takes that long to pass).
 */
const NO_PROGRESS_LIMIT_MS = 120_000;
const NO_PROGRESS_IN_WINDOW_MS = 30_000;
const MAX_PAUSES_WITHOUT_PROGRESS = 6;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/** Throttles in a row, right after requests got through, waited out by the window's short backoff. */
const QUICK_RETRIES = 2;

/**
 * One per node run (see nodeRun.ts), shared by every request the run sends (orders excepted).
 * Until LibreBOR first throttles, the number in flight grows by slow start (inFlightLimit.ts). On
 * 429 or 503 every request pauses for the server's Retry-After, never less; without one, for a
 * backoff, after which one request goes alone and the others wait for its answer. From the first
 * throttle on, the limit model (limitModel.ts) paces the starts: as many at once as LibreBOR let
 * through, and as many again once it let as many through again, probed upward while answers stay
 * fine. No rate-limit header is needed: LibreBOR does not say its limits. A run starts from what
 * earlier runs with the same account learned, when it is not stale (learnedLimits.ts).
 */
export class Pacer {
	private inFlight: InFlightLimit;
	private model: LimitModel;
	private memory: LimitMemory | undefined;
	private started = false;
	/** In flight at the start: what an earlier run reached with no throttle, or the few of slow start. */
	private startInFlight = INITIAL_IN_FLIGHT;
	private throttles = 0;
	private pausedUntil = 0;
	/** Whether LibreBOR asked for the pause (Retry-After), rather than the pacer chose it. */
	private pauseAsked = false;
	private lastFineAt: number;
	private throttledInARow = 0;
	/** Whether requests got through just before the first throttle of those in a row. */
	private inARowAfterFines = false;
	/** Whether the current pause is a backoff of the limit model's window. */
	private windowBackoff = false;
	private pausesWithoutProgress = 0;
	/**
	 * After a pause the pacer chose, nothing says LibreBOR takes requests again: one request goes
	 * alone first ('next', then 'sent'), and the others wait for its answer.
	 */
	private lead: 'none' | 'next' | 'sent' = 'none';
	private leadStart: PacedStart | undefined;
	private readonly waiting: Array<() => void> = [];
	readonly startedAt: number;
	/** The status of the last throttled answer (429 or 503), for the error once the run stops. */
	lastThrottleStatus = 429;
	/** Why throttled requests are no longer waited for, once they are not. */
	stoppedBecause: 'budget' | 'noProgress' | undefined;

	constructor(readonly settings: PacerSettings) {
		this.startedAt = now();
		this.lastFineAt = this.startedAt;
		this.model = new LimitModel(this.startedAt);
		this.inFlight = new InFlightLimit(settings.ceiling);
	}

	/** Whether the run's account is known yet (useAccount). */
	get knowsAccount(): boolean {
		return this.memory !== undefined;
	}

	/**
	 * The account the run's requests go to, known once the first request has read its credential:
	 * the run starts from what earlier runs learned of that account's limit. Only the first call counts.
	 */
	useAccount(memory: LimitMemory): void {
		if (this.memory) return;
		this.memory = memory;
		if (this.started) return;
		const learned = recallLimit(memory);
		this.model = new LimitModel(this.startedAt, learned);
		const start = this.model.paced ? this.settings.ceiling : learned?.inFlight;
		this.startInFlight = start ?? INITIAL_IN_FLIGHT;
		this.inFlight = new InFlightLimit(this.settings.ceiling, this.startInFlight);
	}

	/**
	 * What this run learned of the account's limit: the window that held, or the number in flight
	 * that drew no throttle; undefined when it learned nothing worth keeping.
	 */
	get learned(): LearnedLimit | undefined {
		// A small job reaches fewer than an earlier run did; with no throttle that still holds.
		const inFlight = Math.max(this.startInFlight, this.inFlight.most);
		if (this.throttles === 0 && !this.model.paced && inFlight > INITIAL_IN_FLIGHT)
			return { inFlight };
		return this.model.learned;
	}

	/** The run is over: what it learned is kept for the next runs with the same account. */
	finish(): void {
		const { learned, memory } = this;
		if (learned && memory) rememberLimit(memory, learned);
	}

	/**
	 * Waits for a free place, for any pause to end and for the limit model to let one more start,
	 * then holds the place until `release`. False, holding nothing, when the pause asked for runs
	 * past the run's time budget.
	 */
	async acquire(): Promise<PacedStart | false> {
		for (;;) {
			if (this.pausedUntil - this.startedAt > this.settings.budgetMs) {
				this.stoppedBecause = 'budget';
				// No release may come to wake the others: each of them stops here too.
				for (const wake of this.waiting.splice(0)) wake();
				return false;
			}
			const time = now();
			const pause = this.pausedUntil - time;
			if (pause > 0) {
				await sleep(pause);
				continue;
			}
			if (this.inFlight.free <= 0 || this.lead === 'sent') {
				await new Promise<void>((resolve) => this.waiting.push(resolve));
				continue;
			}
			// A wait past the budget is not waited: LibreBOR decides, and its answer ends the run.
			const gap = this.model.waitMs(time);
			if (gap > 0 && time + gap - this.startedAt <= this.settings.budgetMs) {
				await sleep(gap);
				continue;
			}
			return this.start(time);
		}
	}

	/** Gives back the place `acquire` gave. */
	release(start: PacedStart, outcome: PacedOutcome): void {
		this.inFlight.answered(outcome.kind);
		if (this.lead === 'sent' && start === this.leadStart) this.lead = 'none';
		if (outcome.kind === 'fine') this.onFine(start);
		if (outcome.kind === 'throttled') {
			this.lastThrottleStatus = outcome.status;
			this.model.refused(start);
			this.onThrottled(outcome.retryAfterMs);
		}
		this.wakeWaiting();
	}

	/**
	 * How long to wait before sending a throttled request again, or undefined when the run
	 * must stop: its budget would be spent, or the server has refused everything for too long.
	 */
	retryWait(retryAfterMs: number | undefined): number | undefined {
		const time = now();
		// The throttle's release set the pause: Retry-After, or the backoff.
		const wait = Math.max(this.pausedUntil - time, retryAfterMs ?? 0, 0);
		const sinceFine = time - this.lastFineAt;
		if (time + wait - this.startedAt > this.settings.budgetMs) this.stoppedBecause = 'budget';
		else if (
			sinceFine > NO_PROGRESS_LIMIT_MS ||
			(this.pausesWithoutProgress >= MAX_PAUSES_WITHOUT_PROGRESS &&
				(!this.windowBackoff || sinceFine >= NO_PROGRESS_IN_WINDOW_MS))
		) {
			this.stoppedBecause = 'noProgress';
		}
		return this.stoppedBecause ? undefined : wait;
	}

	private start(time: number): PacedStart {
		const start: PacedStart = { at: time };
		this.started = true;
		if (this.lead === 'next') {
			this.lead = 'sent';
			this.leadStart = start;
		}
		this.inFlight.started();
		this.model.started(start);
		return start;
	}

	/**
	 * Without a Retry-After: half a window of the limit model, once enough answers back it or when
	 * requests got through just before (the run went a little too fast), else 1 s; doubled each
	 * time in a row.
	 */
	private backoffMs(): number {
		const inARow = this.throttledInARow;
		if (inARow <= 1) this.inARowAfterFines = this.model.tookRequestsThisCycle;
		const quick = this.inARowAfterFines && inARow <= QUICK_RETRIES;
		const windowBased = this.model.backoffMs(quick);
		this.windowBackoff = windowBased !== undefined;
		// Waiting for a known window to pass, finer steps overshoot it less.
		if (windowBased !== undefined)
			return Math.min(MAX_BACKOFF_MS, windowBased * 1.5 ** Math.max(0, inARow - 1));
		const slowSteps = inARow - 1 - (this.inARowAfterFines ? QUICK_RETRIES : 0);
		return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, slowSteps));
	}

	private onFine(start: PacedStart): void {
		// Progress again: a later throttle is waited out, not failed at once.
		if (this.stoppedBecause === 'noProgress') this.stoppedBecause = undefined;
		this.lastFineAt = now();
		this.throttledInARow = 0;
		this.pausesWithoutProgress = 0;
		this.model.fine(start, this.lastFineAt);
		// A fine answer during a pause the pacer chose says LibreBOR takes requests: a short wait will do.
		const short = this.model.backoffMs(true);
		if (!this.pauseAsked && short !== undefined)
			this.pausedUntil = Math.min(this.pausedUntil, this.lastFineAt + short);
	}

	private onThrottled(retryAfterMs: number | undefined): void {
		const time = now();
		this.throttles++;
		// The answers to requests already in flight tell of the same overload: learn once per pause.
		if (time < this.pausedUntil) {
			if (retryAfterMs !== undefined) {
				this.pausedUntil = Math.max(this.pausedUntil, time + retryAfterMs);
				this.pauseAsked = true;
			}
			return;
		}
		this.throttledInARow++;
		this.pausesWithoutProgress++;
		this.windowBackoff = false;
		const wait = retryAfterMs ?? this.backoffMs();
		this.pausedUntil = time + wait;
		this.pauseAsked = retryAfterMs !== undefined;
		if (!this.pauseAsked) this.lead = 'next';
		this.model.throttled(time, wait, retryAfterMs);
		this.inFlight.throttled(this.model.paced);
	}

	private wakeWaiting(): void {
		const free = this.lead === 'sent' ? 0 : this.inFlight.free;
		for (let woken = 0; woken < free && this.waiting.length > 0; woken++) this.waiting.shift()?.();
	}
}
