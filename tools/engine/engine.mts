import { Container } from '@n8n/di';
import { BinaryDataService, DataDeduplicationService, InstanceSettings } from 'n8n-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { InMemoryDeduplicator } from './deduplication.mts';

let engineReady: Promise<EngineFolders> | undefined;

/** n8n's deduplication store as this test process's engine keeps it. */
export const deduplicationStore = new InMemoryDeduplicator();

export interface EngineFolders {
	/** Private n8n user folder of this test process (settings file, encryption key). */
	userFolder: string;
	/** Where the filesystem binary-data mode writes files. */
	binaryDataFolder: string;
}

/**
 * Prepares n8n-core's services once per test process, as n8n does at start-up:
 * instance settings in a private user folder and binary data in filesystem mode,
 * so that downloads are streamed to disk exactly as in a production instance.
 */
export async function ensureEngine(): Promise<EngineFolders> {
	engineReady ??= startEngine();
	return await engineReady;
}

async function startEngine(): Promise<EngineFolders> {
	const userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-nodes-librebor-harness-'));
	process.on('exit', () => rmSync(userFolder, { recursive: true, force: true }));

	// @n8n/config reads the environment when a config class is first built, so this
	// has to happen before anything asks the container for a service.
	process.env.N8N_USER_FOLDER = userFolder;
	process.env.N8N_ENCRYPTION_KEY ??= 'n8n-nodes-librebor-test-key';
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	process.env.N8N_LOG_LEVEL ??= 'silent';
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
	delete process.env.N8N_STORAGE_PATH;
	delete process.env.N8N_BINARY_DATA_STORAGE_PATH;

	const instanceSettings = Container.get(InstanceSettings);
	await Container.get(BinaryDataService).init();
	await DataDeduplicationService.init(deduplicationStore);

	return {
		userFolder,
		binaryDataFolder: path.join(instanceSettings.n8nFolder, 'storage'),
	};
}
