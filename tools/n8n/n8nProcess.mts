import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { findFreePort } from './freePort.mts';
import type { N8nUserFolder } from './n8nUserFolder.mts';
import { stopWithThisProcess } from './stopWithThisProcess.mts';

/** Settings of the test runner's own process that must not leak into n8n. */
const notInherited =
	/^(N8N_|DB_|EXECUTIONS_|QUEUE_|VITEST|NODE_ENV$|NODE_OPTIONS$|TEST$|E2E_TESTS$)/;

/** The stdout and stderr of an n8n process, collected as they arrive. */
export class CapturedOutput {
	stdout = '';
	stderr = '';
	/** Both streams, interleaved in arrival order. */
	all = '';
	private readonly listeners = new Set<() => void>();

	attach(child: ChildProcess): void {
		child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.append('stdout', chunk));
		child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.append('stderr', chunk));
	}

	/** Calls `listener` on every new chunk; returns a function that stops it. */
	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private append(stream: 'stdout' | 'stderr', chunk: string): void {
		this[stream] += chunk;
		this.all += chunk;
		for (const listener of this.listeners) listener();
	}
}

export interface N8nProcess {
	child: ChildProcess;
	output: CapturedOutput;
	/** The JSON-lines log file of this process (read it with readLogFile). */
	logFile: string;
	/** Resolves when the process has exited. */
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnN8nOptions {
	/** Extra or overriding n8n settings for this process. */
	env?: Record<string, string>;
	/** A word for the log file name. */
	label?: string;
}

let processCount = 0;

/**
 * Starts `n8n <args>` with Node 24 on a user folder. Each process gets its own task-broker port
 * (n8n 2.41 starts a task broker for `start` and `execute`, by default always on port 5679)
 * and its own JSON log file, besides its console output.
 * The process leads its own process group, so that its task runner can be stopped with it.
 */
export async function spawnN8n(
	folder: N8nUserFolder,
	args: string[],
	options: SpawnN8nOptions = {},
): Promise<N8nProcess> {
	const { nodeBin, n8nBin } = folder.installation;
	mkdirSync(folder.logsFolder, { recursive: true });
	processCount += 1;
	const logFile = path.join(
		folder.logsFolder,
		`${String(processCount).padStart(3, '0')}-${options.label ?? args[0].replace(/\W+/g, '-')}.log`,
	);
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !notInherited.test(name)),
	);
	const env = {
		...inherited,
		PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		...folder.env,
		N8N_RUNNERS_BROKER_PORT: String(await findFreePort()),
		N8N_LOG_OUTPUT: 'console,file',
		N8N_LOG_FILE_LOCATION: logFile,
		...options.env,
	};
	const child = spawn(nodeBin, [n8nBin, ...args], {
		cwd: folder.root,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	stopWithThisProcess(child, { group: true });
	const output = new CapturedOutput();
	output.attach(child);
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
		(resolve, reject) => {
			child.on('error', reject);
			child.on('close', (code, signal) => resolve({ code, signal }));
		},
	);
	return { child, output, logFile, exited };
}

/** Sends a signal to the process and everything it started (its task runner). */
export function signalProcessGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// Already gone.
	}
}
