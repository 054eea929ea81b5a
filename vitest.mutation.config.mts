import { defineConfig } from 'vitest/config';

import { shared } from './vitest.config.mts';

/**
 * The engine tests that pin the modules Stryker mutates (stryker.config.mjs): every shipped module
 * with logic. No end-to-end or fault-injection test, and none that measure real time against a
 * rate limit or the garbage collector (pacing, download memory, bounded state): under the halved
 * waits of test/support/shortSettle.mts they would measure the test set-up, not the code.
 */
const tests = [
	'actions/actCategories',
	'actions/alert',
	'actions/alertFilters',
	'actions/document',
	'actions/documentPolling',
	'actions/documentWaits',
	'actions/downloadLimits',
	'actions/expressionOptions',
	'actions/listSearch',
	'actions/nodeVersions',
	'actions/orderAnswers',
	'actions/orderBatch',
	'actions/orderLimits',
	'actions/orderMemory',
	'actions/orderRaces',
	'actions/watchlist',
	'actions/watchlistSync',
	'foundation/credential',
	'foundation/hostileAnswers',
	'foundation/redirects',
	'foundation/transport',
	'foundation/validation',
	'trigger/cappedList',
	'trigger/exactlyOnce',
	'trigger/failures',
	'trigger/filters',
	'trigger/knownAlerts',
	'trigger/listingGlitches',
	'trigger/manual',
	'trigger/output',
	'trigger/scheduler',
	'trigger/stops',
	'trigger/timeout',
];

export default defineConfig({
	...shared,
	test: {
		...shared.test,
		include: tests.map((name) => `test/${name}.test.*ts`),
		setupFiles: ['test/support/shortSettle.mts'],
		reporters: ['default'],
	},
});
