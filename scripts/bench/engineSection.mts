// Runs one measurement of scripts/bench/engine/ alone, on the package built. Needs
// NODE_EXTRA_CA_CERTS like `npm run bench`.
import { execFileSync } from 'node:child_process';

import type { Goal } from './markdown.mts';
import { runInEngine } from './runInEngine.mts';
import { runStandaloneSection } from './standaloneSection.mts';

/** Runs the measurement `<name>.measure.mts` alone and prints its section; exits 1 when it fails. */
export function runEngineSection<T>(
	name: string,
	section: (result: T, goals: Goal[]) => string,
): void {
	runStandaloneSection(
		name,
		async (quick) => {
			execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
			return { result: await runInEngine<T>(name, quick ? { BENCH_QUICK: '1' } : {}) };
		},
		section,
	);
}
