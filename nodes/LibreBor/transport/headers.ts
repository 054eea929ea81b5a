import { now } from '../time/clock';

/** The headers of an answer, as n8n's HTTP helper gives them (lower-case names). */
export type ResponseHeaders = Record<string, unknown> | undefined;

/** A header's value as text, the first one when it came more than once; undefined when absent. */
export function headerText(headers: ResponseHeaders, name: string): string | undefined {
	const value = headers?.[name];
	const first = Array.isArray(value) ? (value[0] as unknown) : value;
	return typeof first === 'string' || typeof first === 'number' ? String(first) : undefined;
}

/** The body's media type without its parameters (`text/html`), as the server wrote it. */
export function mediaType(headers: ResponseHeaders): string | undefined {
	return headerText(headers, 'content-type')?.split(';')[0].trim() || undefined;
}

/** The body's size in bytes as the server declared it; NaN when it declared none. */
export function declaredLength(headers: ResponseHeaders): number {
	return Number(headerText(headers, 'content-length'));
}

/**
 * Milliseconds asked for by the Retry-After header (delta-seconds or an HTTP date), or undefined
 * when it is absent or unreadable. A date has a time of day: without one ("-1", "+5", "1,5"),
 * JavaScript's lenient date parser would read a date years ago, that is, "retry now".
 */
export function retryAfterMs(headers: ResponseHeaders): number | undefined {
	const text = headerText(headers, 'retry-after')?.trim();
	if (text === undefined) return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	if (!/\d:\d\d/.test(text)) return undefined;
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}
