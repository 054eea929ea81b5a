// Runs Stryker on the mutation areas named (all of them when none is), one after the other:
// `npm run test:mutation -- [area ...] [stryker options]`, e.g. `-- transport --mutate <file>`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { type IncrementalReport, MUTATION_AREAS, mutationArea, ownsMutant } from './areas.mts';

const args = process.argv.slice(2);
const named = args.filter((arg) => arg in MUTATION_AREAS);
const strykerArgs = args.filter((arg) => !(arg in MUTATION_AREAS));
let failed = false;
for (const area of named.length > 0 ? named : Object.keys(MUTATION_AREAS)) {
	console.log(`\nMutation area: ${area}`);
	const run = spawnSync('npx', ['stryker', 'run', ...strykerArgs], {
		stdio: 'inherit',
		env: { ...process.env, LIBREBOR_MUTATION_AREA: area },
	});
	failed ||= run.status !== 0;
	tidyIncrementalFile(area);
}

/**
 * The committed incremental file keeps only the area's own mutants (see `ownsMutant`), and no path
 * of the machine that ran it (Stryker's projectRoot).
 */
function tidyIncrementalFile(area: string) {
	const file = `scripts/mutation/incremental/${area}.json`;
	if (!existsSync(file)) return;
	const { projectRoot, ...report }: IncrementalReport = JSON.parse(readFileSync(file, 'utf8'));
	const owns = ownsMutant(mutationArea(area)!);
	const machinePaths = [projectRoot, process.cwd()].filter(Boolean).map((root) => `${root}/`);
	const withoutMachinePaths = (text: string) =>
		machinePaths.reduce((cleaned, root) => cleaned.replaceAll(root, ''), text);
	for (const [path, result] of Object.entries(report.files)) {
		const kept = result.mutants
			.filter((mutant) => owns(path, mutant.location.start.line))
			.map((mutant) =>
				mutant.statusReason
					? { ...mutant, statusReason: withoutMachinePaths(mutant.statusReason) }
					: mutant,
			);
		if (kept.length === 0 && result.mutants.length > 0) delete report.files[path];
		else result.mutants = kept;
	}
	writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
process.exitCode = failed ? 1 : 0;
