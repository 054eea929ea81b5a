import { installCommunityPackage } from '../../tools/n8n/communityPackage.mts';
import {
	createN8nUserFolder,
	type N8nUserFolder,
	type N8nUserFolderOptions,
} from '../../tools/n8n/n8nUserFolder.mts';
import { packedLibreBorPackage } from './libreBorPackage.mts';

/** A fresh n8n user folder with this package installed from its tarball, as n8n installs community packages. */
export async function createN8nWithLibreBor(
	options: N8nUserFolderOptions = {},
): Promise<N8nUserFolder> {
	const [{ tarball }, folder] = await Promise.all([
		packedLibreBorPackage(),
		createN8nUserFolder(options),
	]);
	await installCommunityPackage(folder, tarball);
	return folder;
}
