import { defineConfig } from 'vitest/config';

import { shared } from './vitest.config.mts';

/**
 * The engine tests that pin the files Stryker mutates (stryker.config.mjs): the money path, the
 * trigger's memory and the transport. No end-to-end test, and none of the slow ones that prove
 * nothing about those files.
 */
const tests = [
	'actions/document',
	'actions/documentWaits',
	'actions/orderBatch',
	'actions/orderLimits',
	'actions/orderMemory',
	'actions/orderRaces',
	'actions/orderAnswers',
	'foundation/transport',
	'foundation/redirects',
	'foundation/hostileAnswers',
	'trigger/exactlyOnce',
	'trigger/failures',
	'trigger/knownAlerts',
	'trigger/listingGlitches',
	'trigger/scheduler',
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
