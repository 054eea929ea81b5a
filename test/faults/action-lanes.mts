import { ACTION_OPERATIONS, type ActionOperation } from './action-operations.mts';
import { firstError, invariantProblems, runLibreBorAction } from './action-run.mts';
import {
	attemptsWhenPersistent,
	clearErrorProblems,
	requestCount,
	retryBudgetProblems,
} from './checks.mts';
import {
	caseName,
	injectFault,
	modesOf,
	type FaultMode,
	type Lane,
	type LaneCase,
	type Problem,
} from './fault-case.mts';
import { FAULT_KINDS, type FaultKind } from './fault-kinds.mts';

function actionCase(
	operation: ActionOperation,
	kind: FaultKind,
	mode: FaultMode,
	expectedError: RegExp,
): LaneCase {
	const recovers = kind.transient && mode === 'once';
	return {
		name: caseName(kind, mode),
		async run(sim) {
			const prepared = operation.prepare(sim);
			injectFault(sim, operation.target, kind, mode);
			const result = await runLibreBorAction(sim, prepared);
			const sent = requestCount(sim, operation.target);
			const problems: Problem[] = invariantProblems(sim, result);

			if (recovers) {
				const error = firstError(result) as Error | undefined;
				const wrong = error
					? `it failed: ${error.message}`
					: (prepared.wrongOutcome(result) ??
						(sent === 2 ? undefined : `${sent} requests, expected the failed one and one retry`));
				if (wrong) problems.push({ check: 'recovers', detail: wrong });
				return problems;
			}
			problems.push(...clearErrorProblems(firstError(result), expectedError));
			problems.push(
				...retryBudgetProblems(
					sent,
					kind.transient ? attemptsWhenPersistent(kind.fault, operation.target.origin) : 1,
				),
			);
			return problems;
		},
	};
}

/** Every operation of the action node against every fault that can strike its request. */
export const ACTION_LANES: Lane[] = ACTION_OPERATIONS.map((operation) => ({
	name: operation.name,
	simulatorOptions: operation.simulatorOptions,
	cases: FAULT_KINDS.flatMap((kind) => {
		const expectedError = operation.expectedError(kind);
		if (!expectedError) return [];
		return modesOf(kind).map((mode) => actionCase(operation, kind, mode, expectedError));
	}),
}));
