// One case of a measurement in n8n-core's engine under a rate limit: the job runs through a delay
// proxy of its own at the limited round trip (a new address is a new account for what the node
// learns of a limit, so that no case starts from what the one before learned), under the limit set
// afresh with the simulator's counters cleared, and is timed; then what the limit saw of it.
import type { RateLimit } from '../../../tools/simulator/index.mts';
import { startDelayProxy } from '../delayProxy.mts';
import { LIMITED_ROUND_TRIP_MS } from '../n8n/rateLimitRuns.mts';
import type { BenchSimulator } from '../simulatorControl.mts';

export interface LimitedCase<T> {
	/** What the job returned. */
	outcome: T;
	ms: number;
	/** The least time the limit needs to admit the job's requests, from its first one. */
	floorMs: number;
	requests: number;
	throttled: number;
}

type Traffic = { throttled: number; admitted: number };

/**
 * Runs `job` (given the proxy's base URL) under `limit`. The simulator must have been reset before,
 * so that the job's first request is the first one its log holds: the floor counts from it.
 */
export async function underLimit<T>(
	sim: BenchSimulator,
	limit: RateLimit,
	jobRequests: number,
	job: (baseUrl: string) => Promise<T>,
): Promise<LimitedCase<T>> {
	const proxy = await startDelayProxy(sim.baseUrl, LIMITED_ROUND_TRIP_MS);
	try {
		await sim.process.control('DELETE', 'traffic');
		await sim.process.control('POST', 'settings', { rateLimit: limit });
		const started = performance.now();
		const outcome = await job(proxy.baseUrl);
		const ms = performance.now() - started;
		const traffic = (await sim.process.control('GET', 'traffic')) as Traffic;
		return {
			outcome,
			ms,
			floorMs: await sim.floorMs(jobRequests),
			requests: traffic.admitted + traffic.throttled,
			throttled: traffic.throttled,
		};
	} finally {
		await proxy.close();
	}
}
