import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { repoRoot } from '../../tools/repoPaths.mts';

const VITEST = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');

/**
 * Runs one measurement of scripts/bench/engine/ (`<name>.measure.mts`) in a fresh Vitest process
 * and returns the figures it reported. A fresh process each, so that no measurement inherits
 * another's heap or warmed-up connections.
 */
export async function runInEngine<T>(name: string, env: Record<string, string> = {}): Promise<T> {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'librebor-bench-'));
	const resultFile = path.join(folder, 'result.json');
	const child = spawn(
		process.execPath,
		[
			VITEST,
			'run',
			'--config',
			'scripts/bench/engine/vitest.config.mts',
			`scripts/bench/engine/${name}.measure.mts`,
		],
		{
			cwd: repoRoot,
			env: { ...process.env, ...env, BENCH_RESULT_FILE: resultFile },
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let output = '';
	child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
	child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
	const code = await new Promise<number | null>((resolve, reject) => {
		child.on('error', reject);
		child.on('close', resolve);
	});
	try {
		if (code !== 0)
			throw new Error(`The ${name} measurement failed (exit code ${code}):\n${output}`);
		return JSON.parse(readFileSync(resultFile, 'utf8')) as T;
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
