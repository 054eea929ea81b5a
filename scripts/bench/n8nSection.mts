// What the scripts that run one measurement in a real n8n alone share: the package built and
// packed, the measurement run on the tarball (its quick variant with --quick), its section of
// BENCHMARKS.md printed as Markdown with its goals, and its raw figures kept in a file. Needs
// NODE_EXTRA_CA_CERTS like `npm run bench`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { machineInfo, sampleLoad } from './machine.mts';
import type { Goal } from './markdown.mts';
import { buildAndPack } from './packageBuild.mts';

async function printSection<T>(
	name: string,
	measure: (tarball: string, quick: boolean) => Promise<T>,
	section: (result: T, goals: Goal[]) => string,
) {
	const quick = process.argv.includes('--quick');
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'librebor-bench-'));
	const started = performance.now();
	const loadAtStart = machineInfo().loadAverage;
	const stopLoadSampling = sampleLoad();
	try {
		const packed = await buildAndPack(scratch);
		const result = await measure(packed.tarball, quick);
		const load = stopLoadSampling();
		const raw = path.join(os.tmpdir(), `librebor-bench-${name}.json`);
		writeFileSync(raw, JSON.stringify(result));
		const goals: Goal[] = [];
		console.log(section(result, goals));
		for (const goal of goals)
			console.log(`${goal.met ? 'met   ' : 'MISSED'} ${goal.goal}: ${goal.measured}`);
		console.log(
			`Measured in ${Math.round((performance.now() - started) / 1000)} s; load average at the start ${loadAtStart}, 1-minute load from ${load.min.toFixed(1)} to ${load.max.toFixed(1)} through the run; raw results in ${raw}`,
		);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

/** Runs a measurement in a real n8n alone and prints its section; exits 1 when it fails. */
export function runN8nSection<T>(
	name: string,
	measure: (tarball: string, quick: boolean) => Promise<T>,
	section: (result: T, goals: Goal[]) => string,
): void {
	printSection(name, measure, section).catch((error: unknown) => {
		console.error(error instanceof Error ? error.stack : error);
		process.exit(1);
	});
}
