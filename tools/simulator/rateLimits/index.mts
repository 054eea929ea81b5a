// The rate-limit shapes by name, and the checks a limit passes before the simulator uses it.
import { DrfSlidingLog } from './drfSlidingLog.mts';
import { FixedWindow } from './fixedWindow.mts';
import type { Limiter, RateLimit, RateLimitShape } from './limiter.mts';
import { NginxLeakyBucket } from './nginxLeakyBucket.mts';
import { TastypieSlidingLog } from './tastypieSlidingLog.mts';
import { TokenBucket } from './tokenBucket.mts';

export type { LimitDecision, Limiter, RateLimit, RateLimitShape } from './limiter.mts';

const SHAPES: Record<RateLimitShape, new (limit: RateLimit) => Limiter> = {
	'token-bucket': TokenBucket,
	'sliding-log-drf': DrfSlidingLog,
	'sliding-log-tastypie': TastypieSlidingLog,
	'fixed-window': FixedWindow,
	'leaky-bucket-nginx': NginxLeakyBucket,
};

export const RATE_LIMIT_SHAPES = Object.keys(SHAPES) as RateLimitShape[];

const isWhole = (value: unknown, least: number): value is number =>
	typeof value === 'number' && Number.isInteger(value) && value >= least;

/** The limit with its defaults filled in; throws saying what is wrong with it. */
export function checkRateLimit(limit: RateLimit): Required<RateLimit> {
	const full = { shape: 'token-bucket' as const, burst: 0, nodelay: false, ...limit };
	if (!RATE_LIMIT_SHAPES.includes(full.shape))
		throw new Error(`Unknown rate limit shape "${full.shape}": one of ${RATE_LIMIT_SHAPES}`);
	if (!(full.requests > 0 && Number.isFinite(full.requests)))
		throw new Error('requests must be a number above 0');
	if (!isWhole(full.windowMs, 1)) throw new Error('windowMs must be a whole number of at least 1');
	if (!isWhole(full.burst, 0)) throw new Error('burst must be a whole number of at least 0');
	if (full.shape === 'sliding-log-tastypie' && full.windowMs < 1000)
		throw new Error('tastypie counts whole seconds: windowMs must be at least 1000');
	if (full.shape === 'leaky-bucket-nginx' && full.requests * 1_000_000 < full.windowMs)
		throw new Error('nginx needs a rate of at least 0.001 requests a second');
	return full;
}

export function createLimiter(limit: RateLimit): Limiter {
	const full = checkRateLimit(limit);
	return new SHAPES[full.shape](full);
}
