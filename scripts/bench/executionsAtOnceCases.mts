// What the measurements of several executions of one account at once share, in n8n-core's engine
// (engine/executionsAtOnce.measure.mts) and in a real n8n (n8n/executionsAtOnceInN8n.mts): how many
// executions, how many follows each, and the limits.
import { BENCH_SHAPES, type BenchShape } from './n8n/rateLimitRuns.mts';

export const EXECUTIONS = 4;
export const FOLLOWS_EACH = 150;

/** Every shape at 20 a second, and a window of a minute. */
export const AT_ONCE_CASES: BenchShape[] = [
	...BENCH_SHAPES,
	{
		name: 'sliding log with Retry-After (DRF), 200/min',
		limit: { shape: 'sliding-log-drf', requests: 200, windowMs: 60_000 },
	},
];
