// Runs Stryker on the mutation areas named (all of them when none is), one after the other:
// `npm run test:mutation -- [area ...] [stryker options]`, e.g. `-- transport --mutate <file>`.
import { spawnSync } from 'node:child_process';

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
}
process.exitCode = failed ? 1 : 0;
