import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository's root folder, found upwards from the working folder: these helpers also run
 * under Node's own TypeScript support (`npm start`), as ES modules without `__dirname`.
 */
function findRepoRoot(): string {
	for (let folder = process.cwd(); ; folder = path.dirname(folder)) {
		if (existsSync(path.join(folder, 'scripts', 'n8n', 'install.sh'))) return folder;
		if (path.dirname(folder) === folder)
			throw new Error('Run this from inside the n8n-nodes-librebor repository');
	}
}

export const repoRoot = findRepoRoot();

/** Scripts that install and run a real n8n. */
export const n8nScriptsFolder = path.join(repoRoot, 'scripts', 'n8n');

/** The CA certificate of the test LibreBOR simulator's TLS server. */
export const simulatorCaCertificate = path.join(repoRoot, 'tools', 'simulator', 'tls', 'ca.pem');
