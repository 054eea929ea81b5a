import type { ActionResult } from '../../tools/engine/index.mts';
import type { RequestMatcher } from '../../tools/simulator/index.mts';
import { firstError, invariantProblems, runLibreBorAction } from './action-run.mts';
import {
	attemptsWhenPersistent,
	clearErrorProblems,
	errorText,
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
import { ACTION_TIMEOUT_S, FAULT_KINDS, type FaultKind } from './fault-kinds.mts';

const ORDER_REQUEST: RequestMatcher = { method: 'POST', path: /^\/v2\/(documents\/)?order\/$/ };
const DOCUMENT_READ: RequestMatcher = { method: 'GET', path: /^\/v2\/documents\/[^/]+\/$/ };
const YEAR = 2023;

/** Two spellings of one NIF (one order between them) and another company. */
const ORDER_ITEMS = [{ nif: 'B64717838' }, { nif: 'ES-B64717838' }, { nif: 'A86212420' }];
/** An order answered with anything but a refusal may have been placed: the error must say so. */
const MAY_BE_PLACED = /may (already )?have been placed/i;

/** Says that the order went through and which document to pick up, not merely a path with the ID in it. */
const tellsHowToResume = (text: string, documentId: string) =>
	text.includes(documentId) && /\b(ordered|placed)\b/i.test(text);

const errorOfItem = (result: ActionResult, index: number) => result.items[index]?.error;

/**
 * The order request itself, never retried: failing every time, or spoilt after the service
 * placed the order. With "continue on fail", so that the item that repeats the first order
 * shows that the failed order is not sent again.
 */
function orderCase(kind: FaultKind, mode: FaultMode): LaneCase {
	const placed = mode === 'after the order was placed';
	const expectedError = kind.refusal ? kind.apiError : MAY_BE_PLACED;
	return {
		name: caseName(kind, mode),
		async run(sim) {
			injectFault(sim, ORDER_REQUEST, kind, mode);
			const result = await runLibreBorAction(sim, {
				parameters: {
					resource: 'document',
					operation: 'order',
					nif: '={{ $json.nif }}',
					year: YEAR,
					options: { timeout: ACTION_TIMEOUT_S },
				},
				items: ORDER_ITEMS,
				continueOnFail: true,
			});
			const problems: Problem[] = invariantProblems(sim, result);
			problems.push(...retryBudgetProblems(requestCount(sim, ORDER_REQUEST), 2));
			problems.push(...clearErrorProblems(errorOfItem(result, 0), expectedError));
			if (!errorOfItem(result, 1))
				problems.push({
					check: 'fails clearly',
					detail: 'the repeated order did not share the failure',
				});
			const otherOrderFailed = errorOfItem(result, 2) !== undefined;
			if (otherOrderFailed !== !placed) {
				problems.push({
					check: 'fails clearly',
					detail: `the other company's order ${otherOrderFailed ? 'failed' : 'went through'}`,
				});
			}
			return problems;
		},
	};
}

/** Order with Download: the order is placed once, the reads that follow meet the fault. */
function readsAfterOrderCase(kind: FaultKind, mode: FaultMode): LaneCase {
	const recovers = kind.transient && mode === 'once';
	return {
		name: caseName(kind, mode),
		async run(sim) {
			injectFault(sim, DOCUMENT_READ, kind, mode);
			const result = await runLibreBorAction(sim, {
				parameters: {
					resource: 'document',
					operation: 'order',
					nif: 'B64717838',
					year: YEAR,
					options: { download: true, pollInterval: 1, timeout: ACTION_TIMEOUT_S },
				},
			});
			const reads = requestCount(sim, DOCUMENT_READ);
			const problems: Problem[] = invariantProblems(sim, result);
			problems.push(...retryBudgetProblems(requestCount(sim, ORDER_REQUEST), 1));
			const error = firstError(result);
			if (recovers) {
				const wrong = error
					? `it failed: ${(error as Error).message}`
					: !result.items[0]?.binary?.data
						? 'no file in the output'
						: reads !== 2
							? `${reads} reads, expected the failed one and one retry`
							: undefined;
				if (wrong) problems.push({ check: 'recovers', detail: wrong });
				return problems;
			}
			problems.push(...clearErrorProblems(error, kind.apiError));
			problems.push(
				...retryBudgetProblems(reads, kind.transient ? attemptsWhenPersistent(kind.fault) : 1),
			);
			const documentId = sim.state.documents[0]?.id;
			if (documentId && !tellsHowToResume(errorText(error), documentId)) {
				problems.push({
					check: 'names the placed document',
					detail: `the error does not say that document ${documentId} was ordered`,
				});
			}
			return problems;
		},
	};
}

export const ORDER_LANES: Lane[] = [
	{
		name: 'Document > Order, faults on the order',
		cases: FAULT_KINDS.flatMap((kind) => [
			orderCase(kind, 'every time'),
			// A refusal comes before any work: it cannot follow a placed order.
			...(kind.refusal ? [] : [orderCase(kind, 'after the order was placed')]),
		]),
	},
	{
		name: 'Document > Order with Download, faults on the reads after the order',
		cases: FAULT_KINDS.flatMap((kind) =>
			modesOf(kind).map((mode) => readsAfterOrderCase(kind, mode)),
		),
	},
];
