import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// n8n-workflow ships an ESM and a CommonJS build. n8n-core loads the CommonJS one, so the
// nodes and the tests must too: otherwise `instanceof NodeApiError` checks inside the
// engine fail on the errors our nodes throw, as they never would inside n8n.
const commonJsEntry = (name: string) => ({
	find: new RegExp(`^${name}$`),
	replacement: require.resolve(name),
});

/** What every run of the nodes needs, whichever tests it selects (the mutation and bench configs extend it). */
export const shared = defineConfig({
	resolve: {
		alias: ['n8n-workflow', 'n8n-core', '@n8n/di'].map(commonJsEntry),
	},
	test: {
		pool: 'forks',
		testTimeout: 60_000,
		hookTimeout: 900_000,
	},
});

/** Tests that load neither n8n-core nor the nodes' engine. */
const unit = [
	'test/simulator/**/*.test.mts',
	'test/release/**/*.test.mts',
	'test/trigger/knownAlerts.test.mts',
];
const faults = ['test/faults/**/*.test.mts'];
const e2e = ['test/e2e/**/*.test.mts'];

// The test files mostly wait (on the simulator, on pauses, on n8n's polls and schedules): two run
// at once, even on a 2-core machine (Vitest counts workers per group of lanes). The end-to-end
// files come after the other lanes' files, each with an n8n of its own on free ports.
const sideBySide = { maxWorkers: 2 };
const afterTheOtherLanes = { sequence: { groupOrder: 1 } };

// One lane: `npx vitest run --project engine`; all but the end-to-end lane: `npm run test:fast`.
export default defineConfig({
	...shared,
	test: {
		...shared.test,
		reporters: ['default', './test/support/plainSummaryReporter.mts'],
		projects: [
			{ extends: true, test: { name: 'unit', include: unit, ...sideBySide } },
			{
				extends: true,
				test: {
					name: 'engine',
					include: ['test/**/*.test.mts'],
					exclude: [...configDefaults.exclude, ...unit, ...faults, ...e2e],
					...sideBySide,
				},
			},
			{
				extends: true,
				// Every case waits on retries and timeouts: the lanes of cases run side by side.
				test: {
					name: 'faults',
					include: faults,
					maxConcurrency: 32,
					testTimeout: 300_000,
					...sideBySide,
				},
			},
			{
				extends: true,
				test: {
					name: 'e2e',
					include: e2e,
					globalSetup: ['test/e2e/libreBorPackage.mts'],
					...sideBySide,
					...afterTheOtherLanes,
				},
			},
		],
	},
});
