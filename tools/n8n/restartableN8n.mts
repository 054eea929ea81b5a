import { problemsMentioning, type N8nLogEntry } from './n8nLog.mts';
import { N8nRestClient } from './n8nRestClient.mts';
import { startN8n, type N8nServer } from './n8nServer.mts';
import type { N8nUserFolder } from './n8nUserFolder.mts';

/** One n8n on one user folder, stopped and started again as often as a test needs; keeps every run's log. */
export interface RestartableN8n {
	/** Signed in to the running n8n (the latest start). */
	readonly rest: N8nRestClient;
	start(): Promise<void>;
	/** Stops n8n if it runs, keeping its log; safe to call twice. */
	stop(): Promise<void>;
	/** Errors and warnings about `pattern` in the logs of every run stopped so far. */
	problemsMentioning(pattern: RegExp): N8nLogEntry[];
}

export function restartableN8n(
	folder: N8nUserFolder,
	env?: Record<string, string>,
): RestartableN8n {
	let server: N8nServer | undefined;
	let rest: N8nRestClient | undefined;
	const logs: N8nLogEntry[] = [];
	return {
		get rest() {
			if (!rest) throw new Error('n8n was never started');
			return rest;
		},
		async start() {
			server = await startN8n(folder, { env });
			rest = await N8nRestClient.signIn(server);
		},
		async stop() {
			await server?.stop();
			if (server) logs.push(...server.logEntries());
			server = undefined;
		},
		problemsMentioning: (pattern) => problemsMentioning(logs, pattern),
	};
}
