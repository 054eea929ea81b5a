import { now, sleep } from './clock';

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

/** A run with no fine answer for this long, or over this many pauses in a row, stops trying. */
const NO_PROGRESS_LIMIT_MS = 120_000;
const MAX_PAUSES_WITHOUT_PROGRESS = 6;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/** Requests in flight at the start, few so that little is sent past an unknown rate limit. */
const INITIAL_IN_FLIGHT = 4;
/** Fewer fine answers between two throttles say too little about the rate allowed. */
const MIN_FINES_FOR_RATE = 10;
/**
 * While no throttle comes, the learned rate is raised by (t / RATE_DOUBLING_MS)³ of itself, t the
 * time since the last pause: it stays near what was learned for a moment, then probes faster
 * and faster, twice as high after this long.
 */
const RATE_DOUBLING_MS = 2_500;
/** The learned rate lets up to this much time's worth of requests start at once, as after a pause. */
const RATE_BURST_MS = 1_000;
const MIN_RATE_PER_SECOND = 0.5;

/**
 * One per node run (see nodeRun.ts), shared by every request the run sends (orders excepted). It grows the
 * number of requests in flight as TCP grows its window: slow start doubles it every round of
 * fine answers until the first throttle or the ceiling, then one more per round. On 429 or
 * 503 it pauses every request for the server's Retry-After and halves the number in flight.
 * A throttle also tells the rate the server allows: the fine answers since the last throttle
 * over the time they took. From then on requests start no faster than that rate, raised while
 * answers stay fine (probing for a higher limit) and measured again at the next throttle
 * (finding a lower one). No rate-limit header is needed: LibreBOR does not say its limits.
 */
export class Pacer {
	private limit: number;
	/** Slow start goes in rounds of `limit` requests, until the first throttle or the ceiling. */
	private slowStart: boolean;
	private roundStarted = 0;
	private roundAnswered = 0;
	private finesSinceRaise = 0;
	private inFlight = 0;
	private pausedUntil = 0;
	private lastFineAt: number;
	private throttledInARow = 0;
	private pausesWithoutProgress = 0;
	private finesSinceThrottle = 0;
	private lastThrottleAt: number;
	/** Requests a second learned at the last throttle; undefined until the first one. */
	private learnedRate: number | undefined;
	/** When the learned rate lets the next request start, less RATE_BURST_MS of saved-up starts. */
	private rateClock = 0;
	private readonly waiting: Array<() => void> = [];
	readonly startedAt: number;
	/** The status of the last throttled answer (429 or 503), for the error once the run stops. */
	lastThrottleStatus = 429;
	/** Why throttled requests are no longer waited for, once they are not. */
	stoppedBecause: 'budget' | 'noProgress' | undefined;

	constructor(readonly settings: PacerSettings) {
		this.limit = Math.min(settings.ceiling, INITIAL_IN_FLIGHT);
		this.slowStart = this.limit < settings.ceiling;
		this.startedAt = now();
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
			const time = now();
			const pause = this.pausedUntil - time;
			if (pause > 0) {
				await sleep(pause);
				continue;
			}
			if (this.inFlight >= this.limit || (this.slowStart && this.roundStarted >= this.limit)) {
				await new Promise<void>((resolve) => this.waiting.push(resolve));
				continue;
			}
			const rate = this.ratePerSecond(time);
			const gap = this.rateClock - RATE_BURST_MS - time;
			if (rate && gap > 0) {
				await sleep(gap);
				continue;
			}
			this.inFlight++;
			this.roundStarted++;
			if (rate) this.rateClock = Math.max(this.rateClock, time) + 1000 / rate;
			return true;
		}
	}

	release(outcome: PacedOutcome): void {
		this.inFlight--;
		if (outcome.kind === 'fine') this.onFine();
		if (outcome.kind === 'throttled') {
			this.lastThrottleStatus = outcome.status;
			this.onThrottled(outcome.retryAfterMs);
		} else this.onAnswered();
		this.wakeWaiting();
	}

	/**
	 * How long to wait before sending a throttled request again, or undefined when the run
	 * must stop: its budget would be spent, or the server has refused everything for too long.
	 */
	retryWait(retryAfterMs: number | undefined): number | undefined {
		const time = now();
		const wait = Math.max(this.pausedUntil - time, retryAfterMs ?? this.backoffMs(), 0);
		if (time + wait - this.startedAt > this.settings.budgetMs) this.stoppedBecause = 'budget';
		else if (
			time - this.lastFineAt > NO_PROGRESS_LIMIT_MS ||
			this.pausesWithoutProgress >= MAX_PAUSES_WITHOUT_PROGRESS
		) {
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
		this.lastFineAt = now();
		this.throttledInARow = 0;
		this.pausesWithoutProgress = 0;
		this.finesSinceThrottle++;
		if (this.slowStart || this.limit >= this.settings.ceiling) return;
		if (++this.finesSinceRaise >= this.limit) {
			this.finesSinceRaise = 0;
			this.limit++;
		}
	}

	/**
	 * A round of slow start ends once all its requests are answered; none of them throttled,
	 * the next round sends twice as many. Waiting for the whole round (no request replaces an
	 * answered one before) bounds what is sent past a rate limit to one round.
	 */
	private onAnswered(): void {
		if (!this.slowStart || ++this.roundAnswered < this.limit) return;
		this.limit = Math.min(this.settings.ceiling, this.limit * 2);
		this.slowStart = this.limit < this.settings.ceiling;
		this.roundStarted = this.roundAnswered = 0;
	}

	private onThrottled(retryAfterMs: number | undefined): void {
		const time = now();
		// The answers to requests already in flight tell of the same overload: cut once per pause.
		if (time < this.pausedUntil) {
			if (retryAfterMs !== undefined)
				this.pausedUntil = Math.max(this.pausedUntil, time + retryAfterMs);
			return;
		}
		this.throttledInARow++;
		const rate = this.ratePerSecond(time);
		const wait = retryAfterMs ?? this.backoffMs();
		this.pausedUntil = time + wait;
		this.pausesWithoutProgress++;
		// The first window also spent what the server had saved up: taken as one pause's worth.
		const windowMs = time - this.lastThrottleAt + (this.learnedRate === undefined ? wait : 0);
		const measured = (this.finesSinceThrottle * 1000) / Math.max(1, windowMs);
		if (this.finesSinceThrottle >= MIN_FINES_FOR_RATE) this.learnedRate = measured;
		else if (rate) this.learnedRate = Math.max(MIN_RATE_PER_SECOND, rate / 2);
		this.finesSinceThrottle = 0;
		this.lastThrottleAt = time;
		this.limit = Math.max(1, Math.floor(this.limit / 2));
		this.slowStart = false;
		this.finesSinceRaise = 0;
	}

	/** The learned rate, probed upward since the last pause ended. */
	private ratePerSecond(time: number): number | undefined {
		if (this.learnedRate === undefined) return undefined;
		return this.learnedRate * (1 + (Math.max(0, time - this.pausedUntil) / RATE_DOUBLING_MS) ** 3);
	}

	private wakeWaiting(): void {
		const free = this.limit - (this.slowStart ? this.roundStarted : this.inFlight);
		for (let woken = 0; woken < free && this.waiting.length > 0; woken++) this.waiting.shift()?.();
	}
}
