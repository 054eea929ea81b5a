// Public entry point of the LibreBOR API simulator.
export { DEFAULT_PASSWORD, DEFAULT_USERNAME, Simulator, startSimulator } from './simulator.mts';
export { ManualClock, systemClock, type Clock } from './clock.mts';
export { SEED_COMPANIES } from './companies.mts';
export type { PreparationTime } from './documentPreparation.mts';
export {
	RATE_LIMIT_SHAPES,
	createLimiter,
	type LimitDecision,
	type Limiter,
	type RateLimit,
	type RateLimitShape,
} from './rateLimits/index.mts';
export type { Admission, Traffic } from './traffic.mts';
export { isValidNif, makeCif } from './nif.mts';
export { pdfLikeBytes } from './downloadHost.mts';
export type { Credentials } from './apiRoutes.mts';
export type { RequestHook } from './requestHooks.mts';
export type {
	Alert,
	AlertEntry,
	AlertSpec,
	Company,
	DocumentRecord,
	DocumentView,
	Fault,
	FaultHandle,
	LoggedRequest,
	Origin,
	Position,
	RequestMatcher,
	SimulatorOptions,
	WatchedEntity,
} from './types.mts';
