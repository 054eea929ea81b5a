// Every request either origin received, for tests to assert on what a client really sent.
import { requestMatches } from './requestMatcher.mts';
import type { LoggedRequest, Origin } from './types.mts';

export class RequestLog {
	readonly entries: LoggedRequest[] = [];

	add(request: LoggedRequest): void {
		this.entries.push(request);
	}

	clear(): void {
		this.entries.length = 0;
	}

	/** Requests with this method whose path starts with the string, or matches the RegExp. */
	to(method: string, pathPrefixOrRegex: string | RegExp, origin?: Origin): LoggedRequest[] {
		return this.entries.filter(
			(request) =>
				requestMatches({ method, origin }, request) &&
				(typeof pathPrefixOrRegex === 'string'
					? request.path.startsWith(pathPrefixOrRegex)
					: requestMatches({ path: pathPrefixOrRegex }, request)),
		);
	}
}
