import type { ActionResult } from '../../tools/engine/index.mts';
import type {
	FaultHandle,
	RequestMatcher,
	Simulator,
	SimulatorOptions,
} from '../../tools/simulator/index.mts';
import type { FaultKind } from './faultKinds.mts';

/**
 * How often a fault strikes: `once` stays within the retry budget, `every time` outlasts it,
 * `after the order was placed` lets the service do the work and then spoils its answer.
 */
export type FaultMode = 'once' | 'every time' | 'after the order was placed';

/** What a case checks. */
export type Check =
	| 'recovers'
	| 'fails clearly'
	| 'retry budget'
	| 'no duplicate order'
	| 'no secret'
	| 'names the placed document'
	| 'stops on failure'
	| 'exactly once'
	| 'marks every alert'
	| 'harness';

export interface Problem {
	check: Check;
	detail: string;
}

/** One problem when `wrong` holds a detail, none when it is undefined. */
export const problemIf = (check: Check, wrong: string | undefined): Problem[] =>
	wrong === undefined ? [] : [{ check, detail: wrong }];

export interface LaneCase {
	name: string;
	/** Runs the case on a simulator just reset, and says what went wrong (nothing when it held). */
	run(sim: Simulator): Promise<Problem[]>;
}

/** Cases that run one after another on one simulator of their own. */
export interface Lane {
	name: string;
	simulatorOptions?: SimulatorOptions;
	cases: LaneCase[];
}

/** The requests faults strike. */
export const TARGETS = {
	alertListing: { method: 'GET', path: '/v2/alerts/' },
	markOne: { method: 'GET', path: /^\/v2\/alerts\/mark_as_read\/(?!all\/)[^/]+\/$/ },
	markAll: { method: 'GET', path: '/v2/alerts/mark_as_read/all/' },
	follow: { method: 'POST', path: '/v2/alerts/follow/' },
	unfollow: { method: 'POST', path: '/v2/alerts/unfollow/' },
	watchlist: { method: 'GET', path: '/v2/alerts/following/' },
	documentRead: { method: 'GET', path: /^\/v2\/documents\/[^/]+\/$/ },
	fileDownload: { method: 'GET', origin: 'download', path: '/files/*' },
	order: { method: 'POST', path: /^\/v2\/(documents\/)?order\/$/ },
	companySearch: { method: 'GET', path: '/v2/company/search/' },
	companyByNif: { method: 'GET', path: '/v2/company/by-nif/*' },
	companyBySlug: { method: 'GET', path: /^\/v2\/company\/by-slug\/[^/]+\/$/ },
	incorporation: { method: 'GET', path: /^\/v2\/company\/by-slug\/[^/]+\/incorporation\/$/ },
	personSearch: { method: 'GET', path: '/v2/person/search/' },
	personBySlug: { method: 'GET', path: '/v2/person/by-slug/*' },
	nifInfo: { method: 'GET', path: '/v2/utils/nif-info/*' },
} satisfies Record<string, RequestMatcher>;

/** The modes a fault is tried in: a transient one once and every time, any other once (it is never retried). */
export const modesOf = (kind: FaultKind): FaultMode[] =>
	kind.transient ? ['once', 'every time'] : ['once'];

export function injectFault(
	sim: Simulator,
	target: RequestMatcher,
	kind: FaultKind,
	mode: FaultMode,
): FaultHandle {
	return sim.injectFault({
		...target,
		...kind.fault,
		times: mode === 'every time' ? Infinity : 1,
		afterHandling: mode === 'after the order was placed',
	});
}

export const caseName = (kind: FaultKind, mode: FaultMode) => `${kind.name}, ${mode}`;

/** The error the run failed with, or the first error item when "continue on fail" kept it going. */
export const firstError = (result: ActionResult): unknown =>
	result.error ?? result.items.find((item) => item.error)?.error;
