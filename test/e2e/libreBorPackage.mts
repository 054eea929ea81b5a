import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { findNode24 } from '../../tools/n8n/n8nInstallation.mts';
import { oncePerTestRun } from './oncePerTestRun.mts';
import { repoRoot } from '../../tools/repoPaths.mts';

const execFileAsync = promisify(execFile);

/** The package as `npm publish` would upload it. */
export interface PackedPackage {
	/** The `npm pack` tarball. */
	tarball: string;
	/** The paths inside the tarball, as `npm pack --json` lists them. */
	files: string[];
}

let packing: Promise<PackedPackage> | undefined;

/**
 * Builds this repository with `npm run build` and packs it with `npm pack`, once per test run:
 * every end-to-end test file installs the same fresh tarball.
 */
export async function packedLibreBorPackage(): Promise<PackedPackage> {
	packing ??= oncePerTestRun('librebor-package', async (folder) => {
		await npm(['run', 'build']);
		return await pack(folder);
	});
	return await packing;
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
