// Mutation testing of what must never go wrong: the money path (orders), the trigger's memory and
// the transport's request path. Run on demand with `npm run test:mutation` (not in CI: it takes the
// better part of an hour on a busy 2-core machine); one area at a time with `--mutate`, e.g.
// `npm run test:mutation -- --mutate nodes/LibreBor/transport/request.ts`. Later runs are
// incremental: only mutants whose code or tests changed run again. The engine tests it runs are
// listed in vitest.mutation.config.mts.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'vitest',
	vitest: { configFile: 'vitest.mutation.config.mts', related: false },
	coverageAnalysis: 'perTest',
	// A mutant of a module-level value (a default limit, a bound) would need every test for itself:
	// those values are pinned by tests of their own (the default caps, the 1,000-alert bound).
	ignoreStatic: true,
	// The money path (the order slice but its description, and placeOrder.ts, which the download
	// tests pin), the trigger's memory and the transport's one request path. The mutation tests
	// halve the nodes' waits through their clock (test/support/shortSettle.mts), the order-intent
	// pause among them, so that orderIntents.ts fits.
	mutate: [
		'nodes/LibreBor/actions/document/order/order.operation.ts:159-196',
		'nodes/LibreBor/actions/document/order/orderBatch.ts',
		'nodes/LibreBor/actions/document/order/orderCap.ts',
		'nodes/LibreBor/actions/document/order/orderIntents.ts',
		'nodes/LibreBor/actions/document/order/orderRun.ts',
		'nodes/LibreBor/actions/document/order/orderSettings.ts',
		'nodes/LibreBor/actions/document/order/orderStores.ts',
		'nodes/LibreBor/actions/document/order/placeOrderOnce.ts',
		'nodes/LibreBor/actions/document/order/workflowOrderMemory.ts',
		'nodes/LibreBor/trigger/activationMemory.ts',
		'nodes/LibreBor/trigger/knownAlerts.ts',
		'nodes/LibreBor/trigger/markPendingAlerts.ts',
		'nodes/LibreBor/api/alerts.ts',
		'nodes/LibreBor/trigger/pollState.ts',
		'nodes/LibreBor/transport/request.ts',
		'nodes/LibreBor/transport/retryLoop.ts',
		'nodes/LibreBor/transport/retryPolicy.ts',
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
