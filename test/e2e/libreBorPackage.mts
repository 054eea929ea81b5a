import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

import { ensureN8nInstalled, findNode24 } from '../../tools/n8n/n8nInstallation.mts';
import { repoRoot } from '../../tools/repoPaths.mts';

const execFileAsync = promisify(execFile);

/** The package as `npm publish` would upload it. */
export interface PackedPackage {
	/** The `npm pack` tarball. */
	tarball: string;
	/** The paths inside the tarball, as `npm pack --json` lists them. */
	files: string[];
}

declare module 'vitest' {
	interface ProvidedContext {
		libreBorPackage: PackedPackage;
	}
}

/**
 * The end-to-end lane's global set-up: builds this repository with `npm run build` and packs it
 * with `npm pack`, once per test run, before any end-to-end file; every one installs that tarball.
 * It installs n8n on a machine that has none, so that no file's set-up pays for it within its
 * hook's timeout (ten minutes on a fresh machine with both cores busy). When other lanes run first,
 * the installation goes on while they run (minutes saved on a fresh machine) and the end-to-end
 * files find it done, or wait for it on install.sh's lock.
 */
export default async function buildAndPack(project: TestProject) {
	// A failed installation is reported by the first file that needs n8n, which tries it again.
	const installing = ensureN8nInstalled().catch(() => undefined);
	if (project.vitest.projects.length === 1) await installing;
	const folder = await mkdtemp(path.join(os.tmpdir(), 'n8n-nodes-librebor-e2e-'));
	await npm(['run', 'build']);
	project.provide('libreBorPackage', await pack(folder));
	return async () => {
		await installing;
		await rm(folder, { recursive: true, force: true });
	};
}

/** The tarball the global set-up packed (dist/ is built by then, too). */
export async function packedLibreBorPackage(): Promise<PackedPackage> {
	return inject('libreBorPackage');
}

async function pack(destination: string): Promise<PackedPackage> {
	const stdout = await npm(['pack', '--json', '--pack-destination', destination]);
	const [packed] = JSON.parse(stdout) as Array<{
		filename: string;
		files: Array<{ path: string }>;
	}>;
	return {
		tarball: path.join(destination, packed.filename),
		files: packed.files.map((file) => file.path),
	};
}

async function npm(args: string[]): Promise<string> {
	try {
		const { stdout } = await execFileAsync('npm', args, {
			cwd: repoRoot,
			maxBuffer: 16 * 1024 * 1024,
			env: {
				...process.env,
				PATH: `${path.dirname(findNode24())}${path.delimiter}${process.env.PATH ?? ''}`,
				npm_config_update_notifier: 'false',
			},
		});
		return stdout;
	} catch (error) {
		const { stdout, stderr } = error as { stdout?: string; stderr?: string };
		throw new Error(
			`npm ${args.join(' ')} failed: ${(error as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`,
		);
	}
}
