import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, "N passed, N failed, N skipped", that tools reading the
 * last lines of a test run understand whatever the runner.
 */
export default class PlainSummaryReporter implements Reporter {
	onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
		const counts = { passed: 0, failed: 0, skipped: 0 };
		for (const testModule of testModules) {
			for (const test of testModule.children.allTests()) {
				const state = test.result().state;
				if (state === 'passed') counts.passed++;
				else if (state === 'failed') counts.failed++;
				else counts.skipped++;
			}
		}
		process.stdout.write(
			`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
		);
	}
}
