/** How many times an idempotent request is tried again, and how long it may wait in all. */
export const RETRY_BUDGET = {
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

/**
 * Milliseconds asked for by a Retry-After header (delta-seconds or an HTTP date),
 * or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	const header = Array.isArray(value) ? value[0] : value;
	if (typeof header !== 'string' && typeof header !== 'number') return undefined;
	const text = String(header).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff for the given retry (0-based) when the server did not say how long to wait. */
export function backoffMs(retry: number): number {
	return RETRY_BUDGET.firstBackoffMs * 2 ** retry;
}

/** Whether one more retry fits the budget, given what the server asked for and what was waited. */
export function withinRetryBudget(
	retry: number,
	retryAfterMs: number | undefined,
	waitedMs: number,
): boolean {
	const nextWait = retryAfterMs ?? backoffMs(retry);
	return (
		retry < RETRY_BUDGET.maxRetries &&
		nextWait <= RETRY_BUDGET.maxSingleWaitMs &&
		waitedMs + nextWait <= RETRY_BUDGET.maxTotalWaitMs
	);
}
