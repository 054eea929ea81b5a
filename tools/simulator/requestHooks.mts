// Callbacks run after a request was handled and before its answer is sent, so that a test can
// change the state in that window (e.g. a new alert arrives right after the list was served).
import { requestMatches } from './requestMatcher.mts';
import type { LoggedRequest, RequestMatcher } from './types.mts';

export type RequestHook = (request: LoggedRequest) => void | Promise<void>;

interface RegisteredHook {
	matcher: RequestMatcher;
	callback: RequestHook;
	remaining: number;
}

export class RequestHooks {
	private hooks: RegisteredHook[] = [];

	/** Runs `callback` for the next `times` matching requests; returns a disposer. */
	add(matcher: RequestMatcher, callback: RequestHook, times = 1): () => void {
		const hook: RegisteredHook = { matcher, callback, remaining: times };
		this.hooks.push(hook);
		return () => {
			this.hooks = this.hooks.filter((entry) => entry !== hook);
		};
	}

	async run(request: LoggedRequest): Promise<void> {
		for (const hook of [...this.hooks]) {
			if (hook.remaining <= 0 || !requestMatches(hook.matcher, request)) continue;
			hook.remaining--;
			if (hook.remaining <= 0) this.hooks = this.hooks.filter((entry) => entry !== hook);
			await hook.callback(request);
		}
	}

	clear(): void {
		this.hooks = [];
	}
}
