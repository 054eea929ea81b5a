import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { repoRoot } from '../../tools/repoPaths.mts';

const execFileAsync = promisify(execFile);

export interface PackedPackage {
	tarball: string;
	/** The tarball's size, as `npm pack` reports it. */
	sizeBytes: number;
	unpackedBytes: number;
	files: number;
}

async function npm(args: string[]): Promise<string> {
	const { stdout } = await execFileAsync('npm', args, {
		cwd: repoRoot,
		maxBuffer: 16 * 1024 * 1024,
	});
	return stdout;
}

/** Builds dist/ with `npm run build` and packs the package with `npm pack`, as it would be published. */
export async function buildAndPack(destination: string): Promise<PackedPackage> {
	await npm(['run', 'build']);
	const [packed] = JSON.parse(
		await npm(['pack', '--json', '--pack-destination', destination]),
	) as Array<{
		filename: string;
		size: number;
		unpackedSize: number;
		entryCount: number;
	}>;
	return {
		tarball: path.join(destination, packed.filename),
		sizeBytes: packed.size,
		unpackedBytes: packed.unpackedSize,
		files: packed.entryCount,
	};
}
