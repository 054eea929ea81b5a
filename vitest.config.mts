import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// n8n-workflow ships an ESM and a CommonJS build. n8n-core loads the CommonJS one, so the
// nodes and the tests must too: otherwise `instanceof NodeApiError` checks inside the
// engine fail on the errors our nodes throw, as they never would inside n8n.
const commonJsEntry = (name: string) => ({
	find: new RegExp(`^${name}$`),
	replacement: require.resolve(name),
});

export default defineConfig({
	resolve: {
		alias: ['n8n-workflow', 'n8n-core', '@n8n/di'].map(commonJsEntry),
	},
	test: {
		include: ['test/**/*.test.mts'],
		reporters: ['default', './test/support/plainSummaryReporter.mts'],
		pool: 'forks',
		testTimeout: 60_000,
		hookTimeout: 900_000,
	},
});
