// What every rate-limit shape offers the simulator. The service's real limit is not published
// (see the API spec), so each shape models a stack LibreBOR plausibly runs behind; its file says
// which one, what it counts, whether a refused request counts, and what it answers. Each stack keys
// its limit by the client's credential (DRF's UserRateThrottle by user, tastypie by the user's
// identifier, Kong by consumer, nginx by a key such as the Authorization header), so the simulated
// account has one limiter: the requests of every execution or worker that uses its credential, each
// on connections of its own, count together (test/simulator/oneAccount.test.mts).
import type { Answer } from '../httpIo.mts';

export type RateLimitShape =
	| 'token-bucket'
	| 'sliding-log-drf'
	| 'sliding-log-tastypie'
	| 'fixed-window'
	| 'leaky-bucket-nginx';

export interface RateLimit {
	/** Default `token-bucket`. */
	shape?: RateLimitShape;
	/** Requests allowed per window (for nginx: the rate, `requests` per `windowMs`). */
	requests: number;
	/** The window in milliseconds: 1000, 60_000, 3_600_000 or any other. */
	windowMs: number;
	/** `leaky-bucket-nginx` only: limit_req's `burst` (default 0). */
	burst?: number;
	/** `leaky-bucket-nginx` only: limit_req's `nodelay` (default false: requests within the burst wait their turn). */
	nodelay?: boolean;
}

/** A limiter's verdict on one request. */
export interface LimitDecision {
	/** The answer refusing the request; absent when it is admitted. */
	refusal?: Answer;
	/** How long an admitted request waits before it is handled (nginx's burst queue). */
	delayMs?: number;
	/** For stacks that count a request once it is answered: its status (0 when the connection was cut). */
	onAnswered?: (status: number, now: number) => void;
}

export interface Limiter {
	admit(now: number): LimitDecision;
	/**
	 * The floor: the least time, from a first request sent at `startMs` into an idle limiter, until
	 * `requests` requests have been admitted (and, for nginx's queue, handled), for a client that
	 * sends each one the moment it fits and is answered at once. Shapes aligned to the clock
	 * (fixed windows, tastypie's whole seconds) depend on `startMs`; 0 is a window's start.
	 */
	floorMs(requests: number, startMs: number): number;
}
