import { installCommunityPackage } from '../communityPackage.mts';
import type { N8nServer } from '../n8nServer.mts';
import { createN8nUserFolder, type N8nUserFolder } from '../n8nUserFolder.mts';
import {
	startN8nWorker,
	startQueueMain,
	startQueueServices,
	type N8nWorker,
	type QueueServices,
} from './n8nQueue.mts';

/**
 * n8n in queue mode with this package: a private Postgres and Redis, a main process, and workers,
 * each process on a user folder of its own with the package installed as n8n installs community packages.
 */
export interface QueueCluster {
	services: QueueServices;
	/** The main process's folder; n8n CLI commands (imports) run on it, against the shared database. */
	mainFolder: N8nUserFolder;
	main: N8nServer | undefined;
	workers: N8nWorker[];
	startMain(): Promise<N8nServer>;
	stopMain(): Promise<void>;
	/** Which worker started each execution, by execution id. */
	workerOfExecution(): Map<string, string>;
	stop(): Promise<void>;
}

export interface QueueClusterOptions {
	workerCount?: number;
	/** Executions each worker runs at once (n8n's default: 10). */
	workerConcurrency?: number;
	/** The package tarball to install. */
	tarball: string;
	/** Extra n8n settings for every process. */
	env?: Record<string, string>;
	log?: (message: string) => void;
}

async function userFoldersWithPackage(count: number, tarball: string, env: Record<string, string>) {
	const settled = await Promise.allSettled(
		Array.from({ length: count }, async () => {
			const folder = await createN8nUserFolder({ env });
			await installCommunityPackage(folder, tarball);
			return folder;
		}),
	);
	const failed = settled.find((result) => result.status === 'rejected');
	if (failed) {
		const made = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
		await Promise.allSettled(made.map(async (folder) => await folder.remove()));
		throw failed.reason;
	}
	return settled.map((result) => (result as PromiseFulfilledResult<N8nUserFolder>).value);
}

export async function startQueueCluster(options: QueueClusterOptions): Promise<QueueCluster> {
	const { workerCount = 2, tarball, log } = options;
	const services = await startQueueServices(log);
	const folders = await userFoldersWithPackage(workerCount + 1, tarball, {
		...services.n8nEnv,
		...options.env,
	}).catch(async (error: unknown) => {
		// Postgres and Redis already run: stop them rather than leave them behind.
		await services.stop();
		throw error;
	});
	const [mainFolder, ...workerFolders] = folders;
	const cluster: QueueCluster = {
		services,
		mainFolder,
		main: undefined,
		workers: [],
		startMain: async () => {
			cluster.main ??= await startQueueMain(mainFolder, services);
			return cluster.main;
		},
		stopMain: async () => {
			await cluster.main?.stop();
			cluster.main = undefined;
		},
		workerOfExecution: () =>
			new Map(
				cluster.workers.flatMap((worker) =>
					worker.startedExecutionIds().map((id) => [id, worker.name]),
				),
			),
		stop: async () => {
			await cluster.stopMain();
			await Promise.allSettled(cluster.workers.map(async (worker) => await worker.stop()));
			await services.stop();
			await Promise.allSettled(folders.map(async (folder) => await folder.remove()));
		},
	};
	try {
		// The main process runs the database migrations; workers start on a migrated database.
		await cluster.startMain();
		const started = await Promise.allSettled(
			workerFolders.map(
				async (folder, index) =>
					await startN8nWorker(`worker-${index + 1}`, folder, services, {
						concurrency: options.workerConcurrency,
					}),
			),
		);
		for (const result of started)
			if (result.status === 'fulfilled') cluster.workers.push(result.value);
		const failed = started.find((result) => result.status === 'rejected');
		if (failed) throw failed.reason;
	} catch (error) {
		await cluster.stop();
		throw error;
	}
	return cluster;
}
