// What the scripts that run one measurement of scripts/bench/engine/ alone share: the package
// built, the measurement run (its quick variant with --quick), its section of BENCHMARKS.md printed
// as Markdown with its goals, and its raw figures kept in a file. Needs NODE_EXTRA_CA_CERTS like
// `npm run bench`.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Goal } from './markdown.mts';
import { runInEngine } from './runInEngine.mts';

async function printSection<T>(name: string, section: (result: T, goals: Goal[]) => string) {
	const quick = process.argv.includes('--quick');
	const started = performance.now();
	execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
	const result = await runInEngine<T>(name, quick ? { BENCH_QUICK: '1' } : {});
	const raw = path.join(os.tmpdir(), `librebor-bench-${name}.json`);
	writeFileSync(raw, JSON.stringify(result));
	const goals: Goal[] = [];
	console.log(section(result, goals));
	for (const goal of goals)
		console.log(`${goal.met ? 'met   ' : 'MISSED'} ${goal.goal}: ${goal.measured}`);
	console.log(
		`Measured in ${Math.round((performance.now() - started) / 1000)} s; raw results in ${raw}`,
	);
}

/** Runs the measurement `<name>.measure.mts` alone and prints its section; exits 1 when it fails. */
export function runEngineSection<T>(
	name: string,
	section: (result: T, goals: Goal[]) => string,
): void {
	printSection(name, section).catch((error: unknown) => {
		console.error(error instanceof Error ? error.stack : error);
		process.exit(1);
	});
}
