import { vi } from 'vitest';

/** Runs with the time of day under the test's control (timers keep running). */
export async function withClock(run: (setTime: (ms: number) => void) => Promise<void>) {
	vi.useFakeTimers({ toFake: ['Date'] });
	try {
		await run((ms) => vi.setSystemTime(ms));
	} finally {
		vi.useRealTimers();
	}
}
