import { cancelledError, waitUnlessCancelled } from '../run/cancellation';
import type { RequestSettings } from '../run/nodeRun';
import type { PacedOutcome } from '../pacing/pacer';
import { budgetSpentError, turnPastBudgetError, type ErrorContext } from './errors';
import { retryBackoffMs, withinRetryBudget } from './retryPolicy';

/** How one try ended: its result, or the error to throw should it be the last. */
export type TryOutcome<T> =
	| { value: T }
	| {
			error: Error;
			retryable: boolean;
			/** What the server's Retry-After asked for. */
			retryAfterMs?: number;
			/** A 429 or 503 from LibreBOR: the run's pacer waits it out, and it costs no retry. */
			throttleStatus?: number;
	  };

export interface RetryRun {
	errorContext: ErrorContext;
	/** The run whose pacer, progress and cancel signal the tries share, and the item they serve. */
	request: RequestSettings;
	/**
	 * A request that spends money (an order): it waits for its turn in the run's pacer as every
	 * request does, so that it does not meet a limit the account's other requests are known to have
	 * reached, but it is sent once: a throttle ends it rather than being waited out.
	 */
	sentOnce: boolean;
	/** What a cancel during a wait stopped, e.g. "The download of document X". */
	what: string;
}

/**
 * Errors of requests that never went out: tries the run stopped (a cancel, its time budget) while
 * they waited for their turn, and those refused before a byte was sent (see markNeverSent).
 */
const stoppedBeforeSending = new WeakSet<Error>();

/**
 * Whether the request never went out: a request sent once (an order) then did nothing of what it
 * asked for, and may be sent later.
 */
export function neverSent(error: unknown): boolean {
	return error instanceof Error && stoppedBeforeSending.has(error);
}

/** The error of a request that never went out (see neverSent). */
export function markNeverSent(error: Error): Error {
	stoppedBeforeSending.add(error);
	return error;
}

/** Errors of requests the run stopped after a try whose outcome is unknown (see outcomeUnknown). */
const stoppedAfterUnsureTry = new WeakSet<Error>();

/**
 * Whether the request was stopped (a cancel, another item's failure) after a try that may have
 * been carried out: a 5xx or a lost connection, its retry not sent. Nor done nor failed for sure.
 */
export function outcomeUnknown(error: unknown): boolean {
	return error instanceof Error && stoppedAfterUnsureTry.has(error);
}

function pacedOutcome(outcome: TryOutcome<unknown> | undefined): PacedOutcome {
	if (outcome && 'value' in outcome) return { kind: 'fine' };
	if (outcome?.throttleStatus === undefined) return { kind: 'other' };
	return { kind: 'throttled', status: outcome.throttleStatus, retryAfterMs: outcome.retryAfterMs };
}

/**
 * The one retry loop of requests and downloads. Each try holds a place of the run's pacer; a
 * throttle is waited out by the pacer within the run's time budget, any other retryable failure is
 * tried again after the retry policy's backoff within its budget, and a cancel ends the wait.
 */
export async function withRetries<T>(
	retryRun: RetryRun,
	tryOnce: () => Promise<TryOutcome<T>>,
): Promise<T> {
	const { errorContext, request } = retryRun;
	const { run } = request;
	const { pacer } = run;
	let waitedMs = 0;
	// Whether a try may have been carried out without a sure answer (a 5xx, a lost connection).
	let unsure = false;
	const stopped = (error: Error) => {
		if (unsure) stoppedAfterUnsureTry.add(error);
		else markNeverSent(error);
		return error;
	};
	for (let retry = 0; ; ) {
		const start = await pacer.acquire(retryRun.sentOnce, run.cancelSignal);
		// A request waiting in the pacer when the run stopped (a cancel, a failed item) is not sent.
		if (run.cancelSignal?.aborted) {
			if (start) pacer.release(start, { kind: 'other' });
			throw stopped(cancelledError(errorContext.node, retryRun.what, errorContext.itemIndex));
		}
		if (start === false)
			throw markNeverSent(
				pacer.stoppedBecause === 'turnPastBudget'
					? turnPastBudgetError(errorContext, run)
					: budgetSpentError(errorContext, pacer.lastThrottleStatus, run),
			);
		let outcome: TryOutcome<T> | undefined;
		try {
			outcome = await tryOnce();
		} finally {
			pacer.release(start, pacedOutcome(outcome));
		}
		if ('value' in outcome) return outcome.value;
		const { retryAfterMs, throttleStatus } = outcome;
		if (throttleStatus === undefined && !neverSent(outcome.error)) unsure = true;
		if (throttleStatus !== undefined && !retryRun.sentOnce) {
			if (pacer.retryWait(retryAfterMs) === undefined)
				throw budgetSpentError(errorContext, throttleStatus, run, retryAfterMs);
			continue;
		}
		if (!outcome.retryable || !withinRetryBudget(retry, retryAfterMs, waitedMs))
			throw outcome.error;
		const waitMs = retryAfterMs ?? retryBackoffMs(retry);
		waitedMs += waitMs;
		retry++;
		await waitUnlessCancelled(errorContext.node, request, waitMs, retryRun.what).catch(
			(error: Error) => {
				throw stopped(error);
			},
		);
	}
}
