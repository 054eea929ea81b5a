import {
	AccountPace,
	joinAccountPace,
	leaveAccountPace,
	type PacedOutcome,
	type PacedRun,
} from './accountPace';
import { now, sleep } from '../time/clock';
import { recallLimit, rememberLimit, type LimitMemory } from './learnedLimits';
import type { LearnedLimit, PacedStart } from './limitModel';

export type { PacedOutcome } from './accountPace';

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

/**
 * One per node run (see nodeRun.ts), shared by every request the run sends (orders too, sent once),
 * within its Parallel Requests and its time budget. The slow start of the number in flight
 * (inFlightLimit.ts), the pauses and the window of starts that follow a throttle are the
 * account's (accountPace.ts): once the run knows its account, it shares them with the account's
 * other runs in this process, and it starts from what earlier runs with the account learned, when
 * it is not stale (learnedLimits.ts). No rate-limit header is needed: LibreBOR does not say its limits.
 */
export class Pacer implements PacedRun {
	/** The run's own until it knows its account (useAccount), then the account's. */
	private pace: AccountPace;
	private memory: LimitMemory | undefined;
	private joined = false;
	private started = false;
	/** The run's requests in flight: never more than its Parallel Requests. */
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];
	readonly startedAt: number;
	/**
	 * Why throttled requests are no longer waited for, once they are not; `turnPastBudget`: a request
	 * sent once got no place, its turn coming after the budget (the others may still go).
	 */
	stoppedBecause: 'budget' | 'noProgress' | 'turnPastBudget' | undefined;
	/**
	 * Once a request stopped for lack of progress, one more goes alone to see whether LibreBOR takes
	 * requests again (the others wait for its answer); refused too, the rest of the run stops at once.
	 * The first request started since a stop began (retryWait clears it then), or what it was answered.
	 */
	private probeAfterStop: PacedStart | 'refused' | undefined;

	constructor(readonly settings: PacerSettings) {
		this.startedAt = now();
		this.pace = new AccountPace(this.startedAt, settings.ceiling);
		this.pace.runs.add(this);
	}

	/** Whether the run's account is known yet (useAccount). */
	get knowsAccount(): boolean {
		return this.memory !== undefined;
	}

	/**
	 * The account the run's requests go to, known once the first request has read its credential:
	 * the run joins the account's pace, and starts from what earlier runs learned of its limit. Only
	 * the first call counts, and only before the run sent anything.
	 */
	useAccount(memory: LimitMemory): void {
		if (this.memory) return;
		this.memory = memory;
		if (this.started) return;
		this.pace.runs.delete(this);
		// From now: a run may wait before its first request (an order's settle pause), and the
		// account's requests meanwhile still count in its window.
		this.pace = joinAccountPace(
			memory.account,
			this,
			{ startedAt: now(), ceiling: this.settings.ceiling },
			recallLimit(memory),
		);
		this.joined = true;
	}

	/**
	 * What was learned of the account's limit: the window that held, or the number in flight that
	 * drew no throttle; undefined when nothing worth keeping was.
	 */
	get learned(): LearnedLimit | undefined {
		return this.pace.learned;
	}

	/**
	 * The status of the account's last throttled answer (429 or 503), for the error once the run
	 * stops: another run's may have stopped it.
	 */
	get lastThrottleStatus(): number {
		return this.pace.lastThrottleStatus;
	}

	/** The run is over: what it learned is kept for the next runs with the same account. */
	finish(): void {
		const { learned, memory } = this;
		if (learned && memory) rememberLimit(memory, learned);
		if (memory && this.joined) leaveAccountPace(memory.account, this, this.settings.ceiling);
	}

	/**
	 * Waits for a free place, for any pause to end and for the account's window to let one more
	 * start, then holds the place until `release`. False, holding nothing, when the pause asked for
	 * runs past the run's time budget. `sentOnce`: a request that is not sent again if refused (an
	 * order) starts only into a window the account's requests have left (see LimitModel.waitMs),
	 * the account's other requests holding meanwhile, and when that is past the budget it gets
	 * false too. A cancel (`signal`) ends any of these waits at once, with false.
	 */
	async acquire(sentOnce = false, signal?: AbortSignal): Promise<PacedStart | false> {
		for (;;) {
			if (signal?.aborted) {
				// A release may have woken this one: the wake goes on to the next.
				this.wakeWaiting();
				return false;
			}
			const { pace } = this;
			const time = now();
			const stop = this.stopReason(time);
			if (stop === 'probing') {
				await this.waitForPlace(signal);
				continue;
			}
			if (stop) {
				this.stoppedBecause = stop;
				// No release may come to wake the others: each of them stops here too.
				for (const wake of this.waiting.splice(0)) wake();
				return false;
			}
			const pause = pace.pausedUntil - time;
			if (pause > 0) {
				const cut = pace.pauseCutSignal;
				await sleep(pause, signal ? AbortSignal.any([signal, cut]) : cut);
				continue;
			}
			if (this.free <= 0 || pace.leadSent) {
				await this.waitForPlace(signal);
				continue;
			}
			const gap = this.gapBeforeStart(time, sentOnce);
			if (gap > 0 && time + gap - this.startedAt <= this.settings.budgetMs) {
				await (sentOnce ? this.sleepForTurn(time + gap, signal) : this.sleepHeld(gap, signal));
				continue;
			}
			// A wait past the budget is not waited: LibreBOR decides, and its answer ends the run. A
			// request sent once is not sent only to be refused: it stops unsent.
			if (gap > 0 && sentOnce) {
				this.stoppedBecause = 'turnPastBudget';
				return false;
			}
			return this.start(time, sentOnce);
		}
	}

	/** Gives back the place `acquire` gave. */
	release(start: PacedStart, outcome: PacedOutcome): void {
		this.inFlight--;
		if (start === this.probeAfterStop)
			this.probeAfterStop = outcome.kind === 'throttled' ? 'refused' : undefined;
		// Progress again: a later throttle is waited out, not failed at once.
		if (outcome.kind === 'fine') {
			if (this.stoppedBecause === 'noProgress') this.stoppedBecause = undefined;
			this.probeAfterStop = undefined;
		}
		this.pace.answered(start, outcome);
	}

	/**
	 * How long to wait before sending a throttled request again, or undefined when the run
	 * must stop: its budget would be spent, or the server has refused everything for the account
	 * for too long.
	 */
	retryWait(retryAfterMs: number | undefined): number | undefined {
		const time = now();
		// The throttle's release set the pause: Retry-After, or the backoff.
		const wait = Math.max(this.pace.pausedUntil - time, retryAfterMs ?? 0, 0);
		const wasStuck = this.stoppedBecause === 'noProgress';
		if (time + wait - this.startedAt > this.settings.budgetMs) this.stoppedBecause = 'budget';
		else if (this.stoppedBecause !== 'budget')
			this.stoppedBecause = this.pace.noProgress(time) ? 'noProgress' : undefined;
		// A stop for lack of progress that begins or ends: its probe is another's, or none.
		if (wasStuck !== (this.stoppedBecause === 'noProgress')) this.probeAfterStop = undefined;
		return this.stoppedBecause ? undefined : wait;
	}

	/**
	 * Why no request of the run may start now: the pause runs past its budget, or, once a throttled
	 * request stopped for lack of progress, nothing gets through for the account still: one request
	 * goes alone (`probing` while it is out), and once LibreBOR refuses it too, the run stops (with
	 * Continue On Fail, the other items fail at once rather than each wait out a pause to be refused).
	 */
	private stopReason(time: number): 'budget' | 'noProgress' | 'probing' | undefined {
		if (this.pace.pausedUntil - this.startedAt > this.settings.budgetMs) return 'budget';
		if (this.stoppedBecause !== 'noProgress' || !this.pace.noProgress(time)) return undefined;
		if (this.probeAfterStop === 'refused') return 'noProgress';
		return this.probeAfterStop ? 'probing' : undefined;
	}

	wakeWaiting(): void {
		const free = this.pace.leadSent ? 0 : this.free;
		for (let woken = 0; woken < free && this.waiting.length > 0; woken++) this.waiting.shift()?.();
	}

	/** Until a release wakes it, or a cancel: a cancelled waiter leaves the queue, so that no wake is spent on it. */
	private async waitForPlace(signal: AbortSignal | undefined): Promise<void> {
		await new Promise<void>((resolve) => {
			const wake = () => {
				signal?.removeEventListener('abort', leave);
				resolve();
			};
			const leave = () => {
				this.waiting.splice(this.waiting.indexOf(wake), 1);
				resolve();
			};
			this.waiting.push(wake);
			signal?.addEventListener('abort', leave);
		});
	}

	/**
	 * Milliseconds until the account's window lets the request start; for one not sent once, at
	 * least until a request sent once that waits for its turn has had it, when that fits the budget.
	 */
	private gapBeforeStart(time: number, sentOnce: boolean): number {
		const gap = this.pace.model.waitMs(time, sentOnce);
		const heldUntil = sentOnce ? undefined : this.pace.heldForSentOnceUntil;
		if (heldUntil === undefined || heldUntil - this.startedAt > this.settings.budgetMs) return gap;
		return Math.max(gap, heldUntil - time);
	}

	/** A request sent once sleeps until `at`, holding the account's others until then (see gapBeforeStart). */
	private async sleepForTurn(at: number, signal?: AbortSignal): Promise<void> {
		const turn = this.pace.beginTurn(at);
		try {
			await sleep(at - now(), signal);
		} finally {
			this.pace.endTurn(turn, signal?.aborted === true);
		}
	}

	/**
	 * Any other request sleeps `ms`, or, while a request sent once waits for its turn, until that
	 * one gives its turn up. With none waiting no hold is in the gap, and the wait builds no signal.
	 */
	private async sleepHeld(ms: number, signal?: AbortSignal): Promise<void> {
		if (this.pace.heldForSentOnceUntil === undefined) return sleep(ms, signal);
		const givenUp = this.pace.turnGivenUpSignal;
		await sleep(ms, signal ? AbortSignal.any([signal, givenUp]) : givenUp);
	}

	/** How many more of the run's requests may start now: within its Parallel Requests and the account's slow start. */
	private get free(): number {
		return Math.min(this.settings.ceiling - this.inFlight, this.pace.inFlight.free);
	}

	private start(time: number, sentOnce: boolean): PacedStart {
		const start: PacedStart = sentOnce ? { at: time, sentOnce } : { at: time };
		this.started = true;
		this.inFlight++;
		this.probeAfterStop ??= start;
		this.pace.started(start);
		return start;
	}
}
