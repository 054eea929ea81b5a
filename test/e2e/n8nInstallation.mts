import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { n8nScriptsFolder, repoRoot } from './repoPaths.mts';

const execFileAsync = promisify(execFile);

/** A real n8n installed by scripts/n8n/install.sh, and the Node 24 that runs it. */
export interface N8nInstallation {
	/** The folder holding node_modules/n8n. */
	home: string;
	/** n8n's command-line entry point (run it with `nodeBin`). */
	n8nBin: string;
	/** Node 24 from the repository's dev dependencies. */
	nodeBin: string;
}

let installing: Promise<N8nInstallation> | undefined;

/**
 * Installs n8n on first use (a few minutes; cached under ~/.cache afterwards) and returns where it is.
 * Set LIBREBOR_N8N_HOME to use another folder.
 */
export async function ensureN8nInstalled(): Promise<N8nInstallation> {
	installing ??= install();
	return await installing;
}

async function install(): Promise<N8nInstallation> {
	const script = path.join(n8nScriptsFolder, 'install.sh');
	let stdout: string;
	try {
		({ stdout } = await execFileAsync('bash', [script], {
			maxBuffer: 64 * 1024 * 1024,
			env: { ...process.env, LIBREBOR_N8N_QUIET: '1' },
		}));
	} catch (error) {
		const { stderr } = error as { stderr?: string };
		throw new Error(
			`Could not install n8n with ${script}: ${(error as Error).message}\n${stderr?.slice(-4000) ?? ''}`,
		);
	}
	const home = stdout.trim().split('\n').pop() ?? '';
	return {
		home,
		n8nBin: path.join(home, 'node_modules', 'n8n', 'bin', 'n8n'),
		nodeBin: findNode24(),
	};
}

/** Node 24 from the repository's dev dependencies, found as the shell scripts find it. */
export function findNode24(): string {
	return execFileSync(
		'bash',
		['-c', 'source "$1/node24.sh" && find_node24 "$2"', 'find-node24', n8nScriptsFolder, repoRoot],
		{ encoding: 'utf8' },
	).trim();
}
