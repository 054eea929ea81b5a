/** How many times an idempotent request is tried again, and how long it may wait in all. */
const RETRY_BUDGET = {
	maxRetries: 3,
	firstBackoffMs: 500,
	maxSingleWaitMs: 30_000,
	maxTotalWaitMs: 60_000,
} as const;

export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * "Too many requests" and "unavailable": the server asks everyone to slow down. Paced
 * requests wait these out within the run's time budget rather than an item's retries.
 */
export function isThrottle(statusCode: number): boolean {
	return statusCode === 429 || statusCode === 503;
}

/** Exponential backoff for the given retry (0-based) when the server did not say how long to wait. */
export function retryBackoffMs(retry: number): number {
	return RETRY_BUDGET.firstBackoffMs * 2 ** retry;
}

/** Whether one more retry fits the budget, given what the server asked for and what was waited. */
export function withinRetryBudget(
	retry: number,
	retryAfterMs: number | undefined,
	waitedMs: number,
): boolean {
	const nextWait = retryAfterMs ?? retryBackoffMs(retry);
	return (
		retry < RETRY_BUDGET.maxRetries &&
		nextWait <= RETRY_BUDGET.maxSingleWaitMs &&
		waitedMs + nextWait <= RETRY_BUDGET.maxTotalWaitMs
	);
}
