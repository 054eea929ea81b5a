// What every script that runs one measurement alone shares: its quick variant with --quick, its
// section of BENCHMARKS.md printed as Markdown with its goals, its raw figures kept in a file, and
// exit 1 when it fails.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Goal } from './markdown.mts';

/** A measurement's figures, and what to say of its run besides the time it took. */
export interface Measured<T> {
	result: T;
	note?: string;
}

async function printSection<T>(
	name: string,
	measure: (quick: boolean) => Promise<Measured<T>>,
	section: (result: T, goals: Goal[]) => string,
) {
	const started = performance.now();
	const { result, note } = await measure(process.argv.includes('--quick'));
	const raw = path.join(os.tmpdir(), `librebor-bench-${name}.json`);
	writeFileSync(raw, JSON.stringify(result));
	const goals: Goal[] = [];
	console.log(section(result, goals));
	for (const goal of goals)
		console.log(`${goal.met ? 'met   ' : 'MISSED'} ${goal.goal}: ${goal.measured}`);
	const seconds = Math.round((performance.now() - started) / 1000);
	console.log(`Measured in ${seconds} s${note ? `; ${note}` : ''}; raw results in ${raw}`);
}

/** Runs the measurement `name` alone and prints its section; exits 1 when it fails. */
export function runStandaloneSection<T>(
	name: string,
	measure: (quick: boolean) => Promise<Measured<T>>,
	section: (result: T, goals: Goal[]) => string,
): void {
	printSection(name, measure, section).catch((error: unknown) => {
		console.error(error instanceof Error ? error.stack : error);
		process.exit(1);
	});
}
