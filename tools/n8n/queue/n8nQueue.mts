import { setTimeout as delay } from 'node:timers/promises';

import { findFreePort } from '../freePort.mts';
import { readLogFile } from '../n8nLog.mts';
import { signalProcessGroup, spawnN8n, type N8nProcess } from '../n8nProcess.mts';
import { startN8n, type N8nServer, type StartN8nOptions } from '../n8nServer.mts';
import type { N8nUserFolder } from '../n8nUserFolder.mts';
import { ensureQueuePackages } from './debianPackages.mts';
import { startPrivatePostgres, type PrivatePostgres } from './privatePostgres.mts';
import { startPrivateRedis, type PrivateRedis } from './privateRedis.mts';

/** The Postgres and Redis that every process of one queue-mode n8n shares. */
export interface QueueServices {
	postgres: PrivatePostgres;
	redis: PrivateRedis;
	/** The settings every n8n process of this installation needs (main, workers, CLI commands). */
	n8nEnv: Record<string, string>;
	stop(): Promise<void>;
}

/** Installs what is missing, then starts a private Postgres and Redis. */
export async function startQueueServices(log?: (message: string) => void): Promise<QueueServices> {
	ensureQueuePackages(log);
	const [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
	return {
		postgres,
		redis,
		n8nEnv: {
			...postgres.n8nEnv,
			...redis.n8nEnv,
			EXECUTIONS_MODE: 'queue',
			// Manual runs from the editor go to the workers too, like production runs: what n8n 3 always
			// does (it drops this setting); n8n 2 runs them on main without it.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		},
		stop: async () => {
			await Promise.allSettled([postgres.stop(), redis.stop()]);
		},
	};
}

/** A running `n8n worker`. */
export interface N8nWorker {
	name: string;
	folder: N8nUserFolder;
	process: N8nProcess;
	/** The ids of the executions this worker started, from its log. */
	startedExecutionIds(): string[];
	/** SIGKILL, as when a machine dies: no chance to finish or hand back its jobs. */
	kill(): Promise<void>;
	/** SIGTERM: n8n lets running jobs finish first; SIGKILL after `timeoutMs`. */
	stop(timeoutMs?: number): Promise<void>;
}

const workerReady = /n8n worker is now ready/;
const workerStartedExecution = /^Worker started execution (\S+) /;

/** Starts `n8n worker` on its own user folder (which must have the community packages installed). */
export async function startN8nWorker(
	name: string,
	folder: N8nUserFolder,
	services: QueueServices,
	{ concurrency = 10, readyTimeoutMs = 120_000 } = {},
): Promise<N8nWorker> {
	const started = await spawnN8n(folder, ['worker', `--concurrency=${concurrency}`], {
		label: name,
		env: { ...services.n8nEnv, QUEUE_HEALTH_CHECK_PORT: String(await findFreePort()) },
	});
	let running = true;
	void started.exited.then(() => (running = false));
	const stop = async (signal: NodeJS.Signals, timeoutMs: number) => {
		if (running) {
			signalProcessGroup(started.child, signal);
			const stopped = await Promise.race([
				started.exited.then(() => true),
				delay(timeoutMs, false),
			]);
			if (!stopped) signalProcessGroup(started.child, 'SIGKILL');
			await started.exited;
		}
		signalProcessGroup(started.child, 'SIGKILL');
	};
	const worker: N8nWorker = {
		name,
		folder,
		process: started,
		startedExecutionIds: () =>
			readLogFile(started.logFile)
				.map((entry) => workerStartedExecution.exec(entry.message)?.[1])
				.filter((id): id is string => id !== undefined),
		kill: async () => await stop('SIGKILL', 5_000),
		stop: async (timeoutMs = 30_000) => await stop('SIGTERM', timeoutMs),
	};
	const deadline = Date.now() + readyTimeoutMs;
	while (!workerReady.test(started.output.all)) {
		if (!running || Date.now() > deadline) {
			await worker.stop(1_000);
			throw new Error(`n8n worker ${name} did not start. Output:\n${started.output.all}`);
		}
		await delay(250);
	}
	return worker;
}

/** Starts the main process (editor, webhooks, triggers) in queue mode. */
export async function startQueueMain(
	folder: N8nUserFolder,
	services: QueueServices,
	options: StartN8nOptions = {},
): Promise<N8nServer> {
	return await startN8n(folder, { ...options, env: { ...services.n8nEnv, ...options.env } });
}
