// Mutation testing of every shipped module with logic: nodes/ and credentials/, the field
// declarations aside (descriptions/, the *.node.ts entry files, node.type.ts, index files and the
// trigger's description.ts). It runs one area at a time (scripts/mutation/areas.mts: the modules
// of one part of the nodes and the tests that pin them): `npm run test:mutation -- <area>`, report
// under reports/mutation/<area>/. For a change, the modules it touches: `npm run test:mutation --
// <area> --mutate <file>`. Each area's incremental file is committed (scripts/mutation/incremental/),
// so that only mutants whose code or tests changed since the area's last run are run again: the
// full run takes hours on a busy 2-core machine. It runs weekly in GitHub Actions
// (.github/workflows/mutation.yml), not in CI.
import { mutationArea } from './scripts/mutation/areas.mts';

const area = mutationArea();
if (!area)
	throw new Error('Run it through `npm run test:mutation -- <area>`: scripts/mutation/areas.mts');
const reports = `reports/mutation/${process.env.LIBREBOR_MUTATION_AREA}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'vitest',
	vitest: { configFile: 'vitest.mutation.config.mts', related: false },
	coverageAnalysis: 'perTest',
	// A mutant of a module-level value (a default limit, a bound) would need every test for itself:
	// those values are pinned by tests of their own (the default caps, the 1,000-alert bound).
	ignoreStatic: true,
	mutate: area.mutate,
	// Every string is mutated but message text, which the tests check where a user reads it: a
	// string that decides what runs (a kind, a status, a parameter's name, a key) is code.
	plugins: ['@stryker-mutator/*', './scripts/mutation/messageStrings.mts'],
	ignorers: ['message-strings'],
	concurrency: 2,
	timeoutMS: 10_000,
	incremental: true,
	incrementalFile: `scripts/mutation/incremental/${process.env.LIBREBOR_MUTATION_AREA}.json`,
	reporters: ['clear-text', 'progress', 'html', 'json'],
	htmlReporter: { fileName: `${reports}/mutation.html` },
	jsonReporter: { fileName: `${reports}/mutation.json` },
	tempDirName: '.stryker-tmp',
	cleanTempDir: 'always',
};
