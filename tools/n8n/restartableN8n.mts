import { problemsMentioning, type N8nLogEntry } from './n8nLog.mts';
import { N8nRestClient } from './n8nRestClient.mts';
import { startN8n, type N8nServer } from './n8nServer.mts';
import type { N8nUserFolder } from './n8nUserFolder.mts';

export type RestartableN8n = ReturnType<typeof restartableN8n>;

/** One n8n on one user folder, stopped and started as often as a test needs, keeping each run's log. */
export function restartableN8n(folder: N8nUserFolder, env?: Record<string, string>) {
	let starting: Promise<N8nServer> | undefined;
	let stopSignal = new AbortController();
	let server: N8nServer | undefined;
	let rest: N8nRestClient | undefined;
	const logs: N8nLogEntry[] = [];
	/** Stops n8n if it runs. */
	const stop = async () => {
		await server?.stop();
		if (server) logs.push(...server.logEntries());
		server = undefined;
	};
	return {
		/** Signed in to the n8n started last. */
		get rest(): N8nRestClient {
			if (!rest) throw new Error('n8n was never started');
			return rest;
		},
		async start() {
			stopSignal = new AbortController();
			starting = startN8n(folder, { env, stopSignal: stopSignal.signal });
			server = await starting;
			rest = await N8nRestClient.signIn(server);
		},
		stop,
		/**
		 * SIGTERM to the n8n started last, at once, also while `start` still waits for it (which then
		 * fails); resolves once it has exited. For a test hook that stops n8n in the middle of a poll.
		 */
		terminate: async () => {
			stopSignal.abort();
			await starting?.catch(() => undefined);
			await stop();
		},
		/** SIGKILL to the n8n started last: it stops at once, saving nothing. */
		kill: async () => {
			await server?.kill();
			if (server) logs.push(...server.logEntries());
			server = undefined;
		},
		/** Errors and warnings about `pattern` in the logs of the runs stopped so far. */
		problemsMentioning: (pattern: RegExp) => problemsMentioning(logs, pattern),
	};
}
