// Decides whether a request is the one a fault, a hook or a log query is about.
import type { LoggedRequest, RequestMatcher } from './types.mts';

/** A string path matches exactly, or as a prefix when it ends in `*`; a RegExp is tested. */
export function pathMatches(pattern: string | RegExp, path: string): boolean {
	if (pattern instanceof RegExp) {
		pattern.lastIndex = 0;
		return pattern.test(path);
	}
	return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}

export function requestMatches(matcher: RequestMatcher, request: LoggedRequest): boolean {
	if (matcher.origin && matcher.origin !== request.origin) return false;
	if (matcher.method && matcher.method.toUpperCase() !== request.method) return false;
	if (matcher.path !== undefined && !pathMatches(matcher.path, request.path)) return false;
	return true;
}
