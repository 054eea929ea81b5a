import type {
	FaultHandle,
	RequestMatcher,
	Simulator,
	SimulatorOptions,
} from '../../tools/simulator/index.mts';
import type { FaultKind } from './fault-kinds.mts';

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
