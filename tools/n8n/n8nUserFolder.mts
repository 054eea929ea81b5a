import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { ensureN8nInstalled, type N8nInstallation } from './n8nInstallation.mts';
import { readOfflineSettings } from './offlineSettings.mts';
import { simulatorCaCertificate } from '../repoPaths.mts';

/** A private n8n data folder (N8N_USER_FOLDER) with the settings every n8n process on it uses. */
export interface N8nUserFolder {
	installation: N8nInstallation;
	/** The value of N8N_USER_FOLDER; n8n keeps its data in `<root>/.n8n`. */
	root: string;
	/** Where n8n loads community packages from. */
	nodesFolder: string;
	/** Where the n8n processes started on this folder write their JSON log files. */
	logsFolder: string;
	/** n8n settings for processes on this folder (more are added per process: ports, log file). */
	env: Record<string, string>;
	remove(): Promise<void>;
}

export interface N8nUserFolderOptions {
	/** Extra or overriding n8n settings. */
	env?: Record<string, string>;
	/** CA certificate file n8n trusts besides the system's; default: the simulator's, when it exists. */
	extraCaCertificates?: string;
	/** A folder to keep (created when missing, its data reused), instead of a new temporary one. */
	root?: string;
}

/** A fixed key, so that credentials written by one n8n process can be read by the next. */
export const testEncryptionKey = 'n8n-nodes-librebor-e2e-encryption-key';

/** Older n8n releases refuse to start when N8N_DISABLED_MODULES names a module they do not have. */
function offlineSettingsFor(installation: N8nInstallation): Record<string, string> {
	const settings = readOfflineSettings();
	const modulesFolder = path.join(installation.home, 'node_modules', 'n8n', 'dist', 'modules');
	const known = (settings.N8N_DISABLED_MODULES ?? '')
		.split(',')
		.filter((name) =>
			[name, `${name}.ee`].some((folder) => existsSync(path.join(modulesFolder, folder))),
		);
	if (known.length > 0) settings.N8N_DISABLED_MODULES = known.join(',');
	else delete settings.N8N_DISABLED_MODULES;
	return settings;
}

/** Creates an empty n8n user folder in the system's temporary folder, or opens `options.root`. */
export async function createN8nUserFolder(
	options: N8nUserFolderOptions = {},
): Promise<N8nUserFolder> {
	const installation = await ensureN8nInstalled();
	const root = options.root ?? (await mkdtemp(path.join(os.tmpdir(), 'n8n-e2e-')));
	await mkdir(root, { recursive: true });
	const extraCaCertificates =
		options.extraCaCertificates ??
		(existsSync(simulatorCaCertificate) ? simulatorCaCertificate : undefined);
	const env: Record<string, string> = {
		...offlineSettingsFor(installation),
		N8N_USER_FOLDER: root,
		N8N_ENCRYPTION_KEY: testEncryptionKey,
		...(extraCaCertificates ? { NODE_EXTRA_CA_CERTS: extraCaCertificates } : {}),
		...options.env,
	};
	return {
		installation,
		root,
		nodesFolder: path.join(root, '.n8n', 'nodes'),
		logsFolder: path.join(root, 'logs'),
		env,
		remove: async () => await rm(root, { recursive: true, force: true, maxRetries: 3 }),
	};
}
