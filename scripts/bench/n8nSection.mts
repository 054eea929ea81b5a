// Runs one measurement in a real n8n alone, on the package built and packed, and says how loaded
// the machine was meanwhile. Needs NODE_EXTRA_CA_CERTS like `npm run bench`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { machineInfo, sampleLoad } from './machine.mts';
import type { Goal } from './markdown.mts';
import { buildAndPack } from './packageBuild.mts';
import { runStandaloneSection, type Measured } from './standaloneSection.mts';

async function measureOnTarball<T>(
	measure: (tarball: string, quick: boolean) => Promise<T>,
	quick: boolean,
): Promise<Measured<T>> {
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'librebor-bench-'));
	const loadAtStart = machineInfo().loadAverage;
	const stopLoadSampling = sampleLoad();
	try {
		const packed = await buildAndPack(scratch);
		const result = await measure(packed.tarball, quick);
		const load = stopLoadSampling();
		const note = `load average at the start ${loadAtStart}, 1-minute load from ${load.min.toFixed(1)} to ${load.max.toFixed(1)} through the run`;
		return { result, note };
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
	runStandaloneSection(name, async (quick) => await measureOnTarball(measure, quick), section);
}
