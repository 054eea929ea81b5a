// Runs Stryker on the mutation areas named (all of them when none is), one after the other:
// `npm run test:mutation -- [area ...] [stryker options]`, e.g. `-- transport --mutate <file>`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { MUTATION_AREAS } from './areas.mts';

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
	withoutMachinePath(`scripts/mutation/incremental/${area}.json`);
}

/** The committed incremental file keeps no path of the machine that ran it (Stryker's projectRoot). */
function withoutMachinePath(file: string) {
	if (!existsSync(file)) return;
	const { projectRoot: _machinePath, ...report } = JSON.parse(readFileSync(file, 'utf8'));
	writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
process.exitCode = failed ? 1 : 0;
