// Public entry point of the LibreBOR API simulator.
export { DEFAULT_PASSWORD, DEFAULT_USERNAME, Simulator, startSimulator } from './simulator.ts';
export { SEED_COMPANIES } from './companies.ts';
export { isValidNif, makeCif, normalizeNif } from './nif.ts';
export type { Credentials } from './api-routes.ts';
export type { RequestHook } from './request-hooks.ts';
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
} from './types.ts';
