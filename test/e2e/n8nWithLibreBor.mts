import { installCommunityPackage } from '../../tools/n8n/communityPackage.mts';
import { importCredentials, importWorkflows } from '../../tools/n8n/n8nCli.mts';
import { restartableN8n, type RestartableN8n } from '../../tools/n8n/restartableN8n.mts';
import {
	createN8nUserFolder,
	type N8nUserFolder,
	type N8nUserFolderOptions,
} from '../../tools/n8n/n8nUserFolder.mts';
import { packedLibreBorPackage } from './libreBorPackage.mts';

interface N8nWithLibreBorOptions extends N8nUserFolderOptions {
	/** Credentials to import, as `n8n import:credentials` reads them. */
	credentials?: object[];
	/** Workflows to import, as `n8n import:workflow` reads them. */
	workflows?: object[];
}

/**
 * A fresh n8n user folder with this package installed from its tarball, as n8n installs community
 * packages, and the credentials and workflows given imported into it.
 */
export async function createN8nWithLibreBor({
	credentials = [],
	workflows = [],
	...options
}: N8nWithLibreBorOptions = {}): Promise<N8nUserFolder> {
	const [{ tarball }, folder] = await Promise.all([
		packedLibreBorPackage(),
		createN8nUserFolder(options),
	]);
	await installCommunityPackage(folder, tarball);
	if (credentials.length > 0) await importCredentials(folder, credentials);
	if (workflows.length > 0) await importWorkflows(folder, workflows);
	return folder;
}

export type N8nWithLibreBor = RestartableN8n & { remove(): Promise<void> };

/**
 * A restartable n8n on a fresh folder with this package, started; `remove` stops it and deletes
 * the folder. `startEnv`: settings of the n8n server only.
 */
export async function startN8nWithLibreBor(
	options: N8nWithLibreBorOptions = {},
	startEnv?: Record<string, string>,
): Promise<N8nWithLibreBor> {
	const folder = await createN8nWithLibreBor(options);
	const n8n = restartableN8n(folder, startEnv);
	const remove = async () => {
		await n8n.stop();
		await folder.remove();
	};
	await n8n.start().catch(async (error: unknown) => {
		await remove();
		throw error;
	});
	return Object.assign(n8n, { remove });
}
