// The measurements that run nodes through n8n-core's engine use the test harness, which needs
// Vitest's module loading; they run as one-test files of their own, started by scripts/bench/run.mts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

import { shared } from '../../../vitest.config.mts';

export default defineConfig({
	...shared,
	root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'),
	test: {
		...shared.test,
		include: ['scripts/bench/engine/*.measure.mts'],
		reporters: ['default'],
		testTimeout: 3_600_000,
	},
});
