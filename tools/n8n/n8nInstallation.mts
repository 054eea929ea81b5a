import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';

import { n8nScriptsFolder, repoRoot } from '../repoPaths.mts';

/** A real n8n installed by scripts/n8n/install.sh, and the Node 24 that runs it. */
export interface N8nInstallation {
	/** The folder holding node_modules/n8n. */
	home: string;
	/** n8n's command-line entry point (run it with `nodeBin`). */
	n8nBin: string;
	/** Node 24 from the repository's dev dependencies. */
	nodeBin: string;
}

export interface EnsureN8nInstalledOptions {
	/** Called with each step the installation script reports (only when it installs). */
	onStep?: (step: string) => void;
}

let installing: Promise<N8nInstallation> | undefined;

/**
 * Installs n8n on first use (a few minutes; cached under ~/.cache afterwards) and returns where it is.
 * Set LIBREBOR_N8N_HOME to use another folder.
 */
export async function ensureN8nInstalled(
	options: EnsureN8nInstalledOptions = {},
): Promise<N8nInstallation> {
	installing ??= install(options.onStep);
	return await installing;
}

async function install(onStep?: (step: string) => void): Promise<N8nInstallation> {
	const script = path.join(n8nScriptsFolder, 'install.sh');
	const child = spawn('bash', [script], {
		env: { ...process.env, LIBREBOR_N8N_QUIET: onStep ? '0' : '1' },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
	child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
		stderr = (stderr + chunk).slice(-64_000);
		// The script's own steps are whole lines without indentation; npm's messages are passed on too.
		for (const line of chunk.split('\n')) if (line.trim() !== '') onStep?.(line.trimEnd());
	});
	const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>(
		(resolve, reject) => {
			child.on('error', reject);
			child.on('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
		},
	);
	if (code !== 0) {
		throw new Error(
			`Could not install n8n with ${script} (exit code ${code}, signal ${signal}):\n${stderr.slice(-4000)}`,
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
