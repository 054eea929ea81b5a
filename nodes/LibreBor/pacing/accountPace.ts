import { now } from '../time/clock';
import { InFlightLimit, INITIAL_IN_FLIGHT } from './inFlightLimit';
import { LimitModel, type LearnedLimit, type PacedStart } from './limitModel';

/** How a paced request ended, for the pacer to adjust the number in flight. */
export type PacedOutcome =
	| { kind: 'fine' }
	| { kind: 'throttled'; status: number; retryAfterMs?: number }
	| { kind: 'other' };

/**
 * With no fine answer for the account for this long, or over this many pauses in a row (not those
 * of a limiter's window, below), a run stops trying; when those pauses are the short ones of a
 * known window, only once the account has had no fine answer for the shorter time too (a window of
 * tens of seconds without Retry-After takes that long to pass).
 */
const NO_PROGRESS_LIMIT_MS = 120_000;
const NO_PROGRESS_IN_WINDOW_MS = 30_000;
const MAX_PAUSES_WITHOUT_PROGRESS = 6;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/**
 * A Retry-After of this much or more is a limiter's window, which the account's executions in other
 * processes (queue-mode workers) may be spending: a run that joins them late is refused until they
 * leave it room, so such pauses are waited out, not counted as pauses without progress. A
 * Retry-After of 0 asks for no wait, and a refusal again is no limiter's window.
 */
const LIMITER_WINDOW_MS = 1000;
/** Throttles in a row, right after requests got through, waited out by the window's short backoff. */
const QUICK_RETRIES = 2;

/** A run paced by an account's pace (see pacer.ts). */
export interface PacedRun {
	/** An answer came, to this run or another: a place or the end of a lone request may free its waiting requests. */
	wakeWaiting(): void;
}

/**
 * What the runs of one account in this process share of its limit: LibreBOR limits the account,
 * not the run, so its pauses, its window of starts (limitModel.ts) and whether anything gets
 * through are the account's. Every run's answers teach it, and every run keeps to it: several
 * executions at once send together what one would, and none takes another's refusals for an
 * account that lets nothing through. On 429 or 503 every request of the account pauses for the
 * server's Retry-After, never less; without one, for a backoff, after which one request goes alone
 * and the others wait for its answer.
 */
export class AccountPace {
	model: LimitModel;
	/**
	 * The account's requests in flight, by slow start until the first throttle (inFlightLimit.ts), up
	 * to its runs' Parallel Requests together: what is sent past an unknown limit stays within one
	 * round of the account's, not one round of each run.
	 */
	readonly inFlight: InFlightLimit;
	/** In flight at the start: what an earlier run reached with no throttle, or the few of slow start. */
	readonly startInFlight: number;
	throttles = 0;
	/** The status of the last throttled answer (429 or 503). */
	lastThrottleStatus = 429;
	pausedUntil = 0;
	/**
	 * When each request sent once (an order) that waits for the window to empty may start: the
	 * account's other requests hold until then, so that it is not kept waiting behind them.
	 */
	private readonly sentOnceTurns = new Set<{ at: number }>();
	/** Aborted when a request sent once gives its turn up unsent: those holding for it look again. */
	private turnGivenUp = new AbortController();
	/** Whether LibreBOR asked for the pause (Retry-After), rather than the pacer chose it. */
	private pauseAsked = false;
	private lastFineAt: number;
	/**
	 * When the first request refused since the last fine answer started: an account that sent
	 * nothing for a while (a document's long poll interval) has not been refused all that time.
	 */
	private refusedSince: number | undefined;
	/** Aborted when a fine answer cuts a pause the pacer chose short: requests asleep in it wake. */
	private pauseCut = new AbortController();
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
	/** The runs paced by it, in progress. */
	readonly runs = new Set<PacedRun>();

	/** For runs that start at `startedAt` with `ceiling` in flight at most, from what earlier runs learned. */
	constructor(startedAt: number, ceiling: number, learned?: LearnedLimit) {
		this.lastFineAt = startedAt;
		this.model = new LimitModel(startedAt, learned);
		const start = this.model.paced ? ceiling : learned?.inFlight;
		this.startInFlight = start ?? INITIAL_IN_FLIGHT;
		this.inFlight = new InFlightLimit(ceiling, this.startInFlight);
	}

	/**
	 * What was learned of the account's limit: the window that held, or the number in flight that
	 * drew no throttle; undefined when nothing worth keeping was.
	 */
	get learned(): LearnedLimit | undefined {
		// A small job reaches fewer than an earlier run did; with no throttle that still holds.
		const inFlight = Math.max(this.startInFlight, this.inFlight.most);
		if (this.throttles === 0 && !this.model.paced && inFlight > INITIAL_IN_FLIGHT)
			return { inFlight };
		return this.model.learned;
	}

	/** Whether a lone request is out, the others waiting for its answer. */
	get leadSent(): boolean {
		return this.lead === 'sent';
	}

	/**
	 * Until when a request not sent once holds for a request sent once that waits for its turn;
	 * undefined when none waits, or when the next request goes alone after a backoff, which one that
	 * is sent once had better not be.
	 */
	get heldForSentOnceUntil(): number | undefined {
		if (this.lead === 'next' || this.sentOnceTurns.size === 0) return undefined;
		return Math.min(...Array.from(this.sentOnceTurns, (turn) => turn.at)) + 1;
	}

	get turnGivenUpSignal(): AbortSignal {
		return this.turnGivenUp.signal;
	}

	/** A request sent once waits for its turn at `at`; the account's others hold until then. */
	beginTurn(at: number): { at: number } {
		const turn = { at };
		this.sentOnceTurns.add(turn);
		return turn;
	}

	/** A request sent once has had its turn, or gave it up unsent (its run cancelled). */
	endTurn(turn: { at: number }, unsent: boolean): void {
		this.sentOnceTurns.delete(turn);
		if (!unsent) return;
		this.turnGivenUp.abort();
		this.turnGivenUp = new AbortController();
	}

	started(start: PacedStart): void {
		this.inFlight.started();
		if (this.lead === 'next') {
			this.lead = 'sent';
			this.leadStart = start;
		}
		this.model.started(start);
	}

	/** The answer to a request of one of its runs. */
	answered(start: PacedStart, outcome: PacedOutcome): void {
		this.inFlight.answered(outcome.kind);
		if (this.lead === 'sent' && start === this.leadStart) this.lead = 'none';
		if (outcome.kind === 'fine') this.onFine(start);
		if (outcome.kind === 'throttled') {
			this.lastThrottleStatus = outcome.status;
			this.refusedSince ??= start.at;
			this.model.refused(start);
			this.onThrottled(outcome.retryAfterMs);
		}
		for (const run of this.runs) run.wakeWaiting();
	}

	/** Aborted when a pause the pacer chose is cut short (see onFine). */
	get pauseCutSignal(): AbortSignal {
		return this.pauseCut.signal;
	}

	/** Whether nothing got through for the account for too long: LibreBOR refuses everything. */
	noProgress(time: number): boolean {
		const sinceFine = time - Math.max(this.lastFineAt, this.refusedSince ?? this.lastFineAt);
		return (
			sinceFine > NO_PROGRESS_LIMIT_MS ||
			(this.pausesWithoutProgress >= MAX_PAUSES_WITHOUT_PROGRESS &&
				(!this.windowBackoff || sinceFine >= NO_PROGRESS_IN_WINDOW_MS))
		);
	}

	/**
	 * Without a Retry-After: half a window of the limit model, once enough answers back it or when
	 * requests got through just before (the account went a little too fast), else 1 s; doubled each
	 * time in a row.
	 */
	private pauseWithoutRetryAfterMs(): number {
		const inARow = this.throttledInARow;
		if (inARow <= 1) this.inARowAfterFines = this.model.tookRequestsThisCycle;
		const quick = this.inARowAfterFines && inARow <= QUICK_RETRIES;
		const windowBased = this.model.halfWindowMs(quick);
		this.windowBackoff = windowBased !== undefined;
		// Waiting for a known window to pass, finer steps overshoot it less.
		if (windowBased !== undefined)
			return Math.min(MAX_BACKOFF_MS, windowBased * 1.5 ** Math.max(0, inARow - 1));
		const slowSteps = inARow - 1 - (this.inARowAfterFines ? QUICK_RETRIES : 0);
		return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, slowSteps));
	}

	private onFine(start: PacedStart): void {
		this.lastFineAt = now();
		this.refusedSince = undefined;
		this.throttledInARow = 0;
		this.pausesWithoutProgress = 0;
		this.model.fine(start, this.lastFineAt);
		// A fine answer during a pause the pacer chose says LibreBOR takes requests: a short wait will do.
		const short = this.model.halfWindowMs(true);
		if (this.pauseAsked || short === undefined || this.pausedUntil <= this.lastFineAt + short)
			return;
		this.pausedUntil = this.lastFineAt + short;
		this.pauseCut.abort();
		this.pauseCut = new AbortController();
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
		if (retryAfterMs === undefined || retryAfterMs < LIMITER_WINDOW_MS)
			this.pausesWithoutProgress++;
		this.windowBackoff = false;
		const wait = retryAfterMs ?? this.pauseWithoutRetryAfterMs();
		this.pausedUntil = time + wait;
		this.pauseAsked = retryAfterMs !== undefined;
		if (!this.pauseAsked) this.lead = 'next';
		this.model.throttled(time, wait, retryAfterMs);
		this.inFlight.throttled(this.model.paced);
	}
}

/** The paces of the accounts this process's runs are using now, by account key (never a user name). */
const inUse = new Map<string, AccountPace>();

/**
 * The pace of the account for a run that starts at `startedAt`: the one the account's runs in
 * progress share, or a new one from what earlier runs learned, when none is in progress.
 */
export function joinAccountPace(
	account: string,
	run: PacedRun,
	settings: { startedAt: number; ceiling: number },
	learned: LearnedLimit | undefined,
): AccountPace {
	let pace = inUse.get(account);
	if (!pace) {
		pace = new AccountPace(settings.startedAt, settings.ceiling, learned);
		inUse.set(account, pace);
	} else pace.inFlight.changeCeiling(settings.ceiling);
	pace.runs.add(run);
	return pace;
}

/** The run is over; the account's pace goes once no run uses it (learnedLimits.ts keeps what it learned). */
export function leaveAccountPace(account: string, run: PacedRun, ceiling: number): void {
	const pace = inUse.get(account);
	if (!pace?.runs.delete(run)) return;
	if (pace.runs.size === 0) inUse.delete(account);
	else pace.inFlight.changeCeiling(-ceiling);
}
