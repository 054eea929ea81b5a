import { setTimeout as delay } from 'node:timers/promises';

import { findFreePort } from './freePort.mts';
import { readLogFile, type N8nLogEntry } from './n8nLog.mts';
import {
	signalProcessGroup,
	spawnN8n,
	type CapturedOutput,
	type N8nProcess,
} from './n8nProcess.mts';
import type { N8nUserFolder } from './n8nUserFolder.mts';

/** A running `n8n start`. */
export interface N8nServer {
	folder: N8nUserFolder;
	port: number;
	/** http://127.0.0.1:<port> */
	baseUrl: string;
	/** Everything n8n printed so far. */
	output: CapturedOutput;
	/** What n8n logged so far to its JSON log file (levels, messages, details). */
	logEntries(): N8nLogEntry[];
	/** Waits until n8n's output since its start matches `pattern`; rejects if it exits first. */
	waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
	/** Stops n8n: SIGTERM, then SIGKILL if it is still running after `timeoutMs` (default 20 s). */
	stop(timeoutMs?: number): Promise<void>;
	/** SIGKILL to n8n and everything it started, as a crash or an out-of-memory kill would end it. */
	kill(): Promise<void>;
}

export interface StartN8nOptions {
	/** Extra or overriding n8n settings for this process. */
	env?: Record<string, string>;
	/** How long n8n may take to start (default 2 minutes; the first start on a folder runs migrations). */
	readyTimeoutMs?: number;
	/** The editor's port (default: a free one). */
	port?: number;
	/** Sends n8n SIGTERM when aborted, also before it is ready (its first polls run before that). */
	stopSignal?: AbortSignal;
}

/** n8n prints this once the server is up and published workflows are being activated. */
const readyMessage = /Editor is now accessible via/;

/** Starts `n8n start` (on a free port unless one is given) and waits until its editor is ready. */
export async function startN8n(
	folder: N8nUserFolder,
	options: StartN8nOptions = {},
): Promise<N8nServer> {
	const port = options.port ?? (await findFreePort());
	const baseUrl = `http://127.0.0.1:${port}`;
	const started = await spawnN8n(folder, ['start'], {
		label: 'start',
		env: { N8N_PORT: String(port), ...options.env },
	});
	let running = true;
	void started.exited.then(() => (running = false));
	options.stopSignal?.addEventListener('abort', () => started.child.kill('SIGTERM'), {
		once: true,
	});

	const server: N8nServer = {
		folder,
		port,
		baseUrl,
		output: started.output,
		logEntries: () => readLogFile(started.logFile),
		waitForOutput: async (pattern, timeoutMs = 60_000) =>
			await waitForOutput(started, pattern, timeoutMs),
		stop: async (timeoutMs = 20_000) => {
			if (running) {
				// n8n stops its own task runner on SIGTERM; the whole group is killed only if it hangs.
				started.child.kill('SIGTERM');
				const stopped = await Promise.race([
					started.exited.then(() => true),
					delay(timeoutMs, false),
				]);
				if (!stopped) signalProcessGroup(started.child, 'SIGKILL');
				await started.exited;
			}
			signalProcessGroup(started.child, 'SIGKILL'); // anything it left behind
		},
		kill: async () => {
			signalProcessGroup(started.child, 'SIGKILL');
			await started.exited;
		},
	};

	try {
		const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
		await waitForOutput(started, readyMessage, readyTimeoutMs);
		await waitForReadiness(baseUrl, readyTimeoutMs);
	} catch (error) {
		await server.stop();
		throw error;
	}
	return server;
}

async function waitForOutput(
	started: N8nProcess,
	pattern: RegExp,
	timeoutMs: number,
): Promise<void> {
	const { output } = started;
	await new Promise<void>((resolve, reject) => {
		const finish = (error?: Error) => {
			clearTimeout(timer);
			stopListening();
			if (error) reject(error);
			else resolve();
		};
		const check = () => {
			if (pattern.test(output.all)) finish();
		};
		const timer = setTimeout(
			() =>
				finish(
					new Error(`n8n did not print ${pattern} within ${timeoutMs} ms. Output:\n${output.all}`),
				),
			timeoutMs,
		);
		const stopListening = output.onChange(check);
		void started.exited.then(({ code, signal }) => {
			if (!pattern.test(output.all)) {
				finish(
					new Error(
						`n8n exited (code ${code}, signal ${signal}) before printing ${pattern}. Output:\n${output.all}`,
					),
				);
			}
		});
		check();
	});
}

async function waitForReadiness(baseUrl: string, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const response = await fetch(`${baseUrl}/healthz/readiness`).catch(() => undefined);
		if (response?.ok) return;
		await delay(250);
	}
	throw new Error(`n8n at ${baseUrl} did not report ready within ${timeoutMs} ms`);
}
