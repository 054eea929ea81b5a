import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { findNode24 } from './n8nInstallation.mts';
import type { N8nUserFolder } from './n8nUserFolder.mts';
import { n8nScriptsFolder } from '../repoPaths.mts';

const execFileAsync = promisify(execFile);

/** Packs a package folder with `npm pack` and returns the tarball's path. */
export async function packPackage(packageFolder: string, destination: string): Promise<string> {
	const { stdout } = await execFileAsync(
		'npm',
		['pack', '--silent', '--pack-destination', destination],
		{
			cwd: packageFolder,
			env: {
				...process.env,
				PATH: `${path.dirname(findNode24())}${path.delimiter}${process.env.PATH ?? ''}`,
			},
		},
	);
	const tarball = stdout.trim().split('\n').pop() ?? '';
	return path.join(destination, tarball);
}

/**
 * Installs a package tarball into the user folder as n8n 2.41 installs a community package
 * (see scripts/n8n/install-package.sh). Do it before starting n8n. Returns the package's folder.
 */
export async function installCommunityPackage(
	folder: N8nUserFolder,
	tarball: string,
): Promise<string> {
	const script = path.join(n8nScriptsFolder, 'install-package.sh');
	try {
		const { stdout } = await execFileAsync('bash', [script, tarball, folder.root]);
		return stdout.trim().split('\n').pop() ?? '';
	} catch (error) {
		const { stderr } = error as { stderr?: string };
		throw new Error(`Could not install ${tarball}: ${(error as Error).message}\n${stderr ?? ''}`);
	}
}
