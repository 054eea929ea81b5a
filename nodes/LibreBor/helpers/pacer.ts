import { sleep } from 'n8n-workflow';

/** "Parallel Requests" by default: chosen from the network benchmark (see BENCHMARKS.md). */
export const DEFAULT_PARALLEL_REQUESTS = 50;
export const DEFAULT_BUDGET_MS = 5 * 60_000;
export const DEFAULT_PACING: PacerSettings = { ceiling: DEFAULT_PARALLEL_REQUESTS, budgetMs: DEFAULT_BUDGET_MS };

export interface PacerSettings {
	/** The most requests in flight at once ("Parallel Requests"). */
	ceiling: number;
	/** How long the run may spend waiting out 429 and 503 answers before items fail. */
	budgetMs: number;
}

/** How a paced request ended, for the pacer to adjust the number in flight. */
export type PacedOutcome = { kind: 'fine' } | { kind: 'throttled'; status: number; retryAfterMs?: number } | { kind: 'other' };

/** A run with no fine answer for this long, or over this many pauses in a row, stops trying. */
export const NO_PROGRESS_LIMIT_MS = 120_000;
export const MAX_PAUSES_WITHOUT_PROGRESS = 6;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
const START_IN_FLIGHT = 4;
/** Once a rate is learned, how fast it is raised again: by this share per fine answer. */
const RATE_RAISE_PER_FINE = 0.0005;
/** Fewer fine answers between two throttles say too little about the rate allowed. */
const MIN_FINES_FOR_RATE = 10;

/**
 * One per node run, shared by every request the run sends (orders excepted): it lets a
 * growing number of requests go at once while answers come back fine, and on 429 or 503
 * pauses all of them for the server's Retry-After and halves the number in flight
 * (additive increase, multiplicative decrease, as TCP does). A throttle also tells the
 * rate the server allows: the fine answers since the last throttle over the time they took
 * (at least the pause asked for); from then on requests start no faster than that rate,
 * raised slowly while answers stay fine.
 */
export class Pacer {
	private limit: number;
	private inFlight = 0;
	private finesSinceRaise = 0;
	private pausedUntil = 0;
	private lastFineAt: number;
	private throttledInARow = 0;
	private pausesWithoutProgress = 0;
	private finesSinceThrottle = 0;
	private lastThrottleAt: number;
	/** Requests a second learned from throttles; undefined until the first one. */
	private ratePerSecond: number | undefined;
	private nextStartAt = 0;
	private readonly waiting: Array<() => void> = [];
	readonly startedAt: number;
	/** Items finished by the run and items in all, for the error that says how far it got. */
	itemsDone = 0;
	itemsTotal = 0;
	/** The status of the last throttled answer (429 or 503), for the error once the run stops. */
	lastThrottleStatus = 429;
	/** Why throttled requests are no longer waited for, once they are not. */
	stoppedBecause: 'budget' | 'noProgress' | undefined;

	constructor(readonly settings: PacerSettings) {
		this.limit = Math.min(settings.ceiling, START_IN_FLIGHT);
		this.startedAt = Date.now();
		this.lastFineAt = this.startedAt;
		this.lastThrottleAt = this.startedAt;
	}

	/**
	 * Waits for a free place and for any pause to end, then holds the place until `release`.
	 * False, holding nothing, when the pause asked for runs past the run's time budget.
	 */
	async acquire(): Promise<boolean> {
		for (;;) {
			if (this.pausedUntil - this.startedAt > this.settings.budgetMs) {
				this.stoppedBecause = 'budget';
				// No release may come to wake the others: each of them stops here too.
				for (const wake of this.waiting.splice(0)) wake();
				return false;
			}
			const pause = this.pausedUntil - Date.now();
			if (pause > 0) {
				await sleep(pause);
				continue;
			}
			const gap = this.nextStartAt - Date.now();
			if (this.inFlight < this.limit && gap > 0) {
				await sleep(gap);
				continue;
			}
			if (this.inFlight < this.limit) {
				this.inFlight++;
				if (this.ratePerSecond) this.nextStartAt = Date.now() + 1000 / this.ratePerSecond;
				return true;
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
	}

	release(outcome: PacedOutcome): void {
		this.inFlight--;
		if (outcome.kind === 'fine') this.onFine();
		if (outcome.kind === 'throttled') {
			this.lastThrottleStatus = outcome.status;
			this.onThrottled(outcome.retryAfterMs);
		}
		this.wakeWaiting();
	}

	/**
	 * How long to wait before sending a throttled request again, or undefined when the run
	 * must stop: its budget would be spent, or the server has refused everything for too long.
	 */
	retryWait(retryAfterMs: number | undefined): number | undefined {
		const now = Date.now();
		const wait = Math.max(this.pausedUntil - now, retryAfterMs ?? this.backoffMs(), 0);
		if (now + wait - this.startedAt > this.settings.budgetMs) this.stoppedBecause = 'budget';
		else if (now - this.lastFineAt > NO_PROGRESS_LIMIT_MS || this.pausesWithoutProgress >= MAX_PAUSES_WITHOUT_PROGRESS) {
			this.stoppedBecause = 'noProgress';
		}
		return this.stoppedBecause ? undefined : wait;
	}

	private backoffMs(): number {
		return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, this.throttledInARow - 1));
	}

	private onFine(): void {
		// Progress again: a later throttle is waited out, not failed at once.
		if (this.stoppedBecause === 'noProgress') this.stoppedBecause = undefined;
		this.lastFineAt = Date.now();
		this.throttledInARow = 0;
		this.pausesWithoutProgress = 0;
		this.finesSinceThrottle++;
		if (this.ratePerSecond) this.ratePerSecond *= 1 + RATE_RAISE_PER_FINE;
		if (this.limit >= this.settings.ceiling) return;
		if (++this.finesSinceRaise >= this.limit) {
			this.finesSinceRaise = 0;
			this.limit++;
		}
	}

	private onThrottled(retryAfterMs: number | undefined): void {
		const now = Date.now();
		// The answers to requests already in flight tell of the same overload: cut once per pause.
		if (now < this.pausedUntil) {
			if (retryAfterMs !== undefined) this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
			return;
		}
		this.throttledInARow++;
		const wait = retryAfterMs ?? this.backoffMs();
		this.pausedUntil = now + wait;
		this.pausesWithoutProgress++;
		if (this.finesSinceThrottle >= MIN_FINES_FOR_RATE) {
			this.ratePerSecond = (this.finesSinceThrottle * 1000) / Math.max(now - this.lastThrottleAt, wait);
		}
		this.finesSinceThrottle = 0;
		this.lastThrottleAt = now;
		this.limit = Math.max(1, Math.floor(this.limit / 2));
		this.finesSinceRaise = 0;
	}

	private wakeWaiting(): void {
		const free = this.limit - this.inFlight;
		for (let woken = 0; woken < free && this.waiting.length > 0; woken++) this.waiting.shift()?.();
	}
}

const pacers = new WeakMap<object, Pacer>();

/** Gives the run (its execution context) the pacer its requests share. */
export function startPacer(context: object, settings: PacerSettings): Pacer {
	const pacer = new Pacer(settings);
	pacers.set(context, pacer);
	return pacer;
}

/** The run's pacer, started with the defaults when the run did not start one (the trigger). */
export function pacerOf(context: object, defaults: PacerSettings): Pacer {
	return pacers.get(context) ?? startPacer(context, defaults);
}
