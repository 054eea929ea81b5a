// Mutation testing of every shipped module with logic: nodes/ and credentials/, the field
// declarations aside (descriptions/, the *.node.ts entry files, node.type.ts, index files and the
// trigger's description.ts). The full run takes hours on a busy 2-core machine: it runs weekly in
// GitHub Actions (.github/workflows/mutation.yml), not in CI. For a change, run the modules it
// touches: `npm run test:mutation -- --mutate nodes/LibreBor/transport/request.ts` (several:
// comma-separated, or a glob). Runs are incremental: only mutants whose code or tests changed run
// again, against reports/mutation/stryker-incremental.json. The engine tests it runs are listed in
// vitest.mutation.config.mts.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'vitest',
	vitest: { configFile: 'vitest.mutation.config.mts', related: false },
	coverageAnalysis: 'perTest',
	// A mutant of a module-level value (a default limit, a bound) would need every test for itself:
	// those values are pinned by tests of their own (the default caps, the 1,000-alert bound).
	ignoreStatic: true,
	// The mutation tests halve the nodes' waits through their clock (test/support/shortSettle.mts),
	// the order-intent pause among them, so that orderIntents.ts fits.
	mutate: [
		'nodes/**/*.ts',
		'credentials/**/*.ts',
		'!nodes/LibreBor/descriptions/**',
		'!nodes/**/*.node.ts',
		'!nodes/**/node.type.ts',
		'!nodes/**/index.ts',
		'!nodes/LibreBor/trigger/description.ts',
		// The Order operation's fields are declarations too: only its execute function is logic.
		'!nodes/LibreBor/actions/document/order/order.operation.ts',
		'nodes/LibreBor/actions/document/order/order.operation.ts:159-196',
	],
	// Messages are checked where a user reads them; mutating every string would only add noise.
	mutator: { excludedMutations: ['StringLiteral'] },
	concurrency: 2,
	timeoutMS: 10_000,
	incremental: true,
	incrementalFile: 'reports/mutation/stryker-incremental.json',
	reporters: ['clear-text', 'progress', 'html', 'json'],
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	tempDirName: '.stryker-tmp',
	cleanTempDir: 'always',
};
