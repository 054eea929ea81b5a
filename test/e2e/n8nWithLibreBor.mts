import { installCommunityPackage } from '../../tools/n8n/communityPackage.mts';
import { importCredentials, importWorkflows } from '../../tools/n8n/n8nCli.mts';
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
