import { defineConfig } from 'vitest/config';

import { mutationArea } from './scripts/mutation/areas.mts';
import { shared } from './vitest.config.mts';

/**
 * The engine tests of the mutation area Stryker runs (LIBREBOR_MUTATION_AREA, see
 * scripts/mutation/areas.mts). No end-to-end or fault-injection test: they would run every
 * operation for each mutant.
 */
const area = mutationArea();
if (!area) throw new Error('LIBREBOR_MUTATION_AREA names no area: see scripts/mutation/areas.mts');

export default defineConfig({
	...shared,
	test: {
		...shared.test,
		include: area.tests.map((name) => `test/${name}.test.*ts`),
		setupFiles: area.halvedWaits ? ['test/support/shortSettle.mts'] : [],
		reporters: ['default'],
	},
});
