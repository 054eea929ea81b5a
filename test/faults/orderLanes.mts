import type { ActionResult } from '../../tools/engine/index.mts';
import { runLibreBor } from '../support/libreBor.mts';
import {
	clearErrorProblems,
	errorText,
	invariantProblems,
	persistentFaultProblems,
	recoveryProblems,
	requestCount,
	retryBudgetProblems,
} from './checks.mts';
import {
	caseName,
	firstError,
	injectFault,
	modesOf,
	problemIf,
	TARGETS,
	type FaultMode,
	type Lane,
	type LaneCase,
} from './faultCase.mts';
import { ACTION_TIMEOUT_S, FAULT_KINDS, type FaultKind } from './faultKinds.mts';

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
	return {
		name: caseName(kind, mode),
		async run(sim) {
			injectFault(sim, TARGETS.order, kind, mode);
			const result = await runLibreBor(
				sim,
				{
					resource: 'document',
					operation: 'order',
					nif: '={{ $json.nif }}',
					year: YEAR,
					options: { timeout: ACTION_TIMEOUT_S },
				},
				{ items: ORDER_ITEMS, continueOnFail: true },
			);
			const otherOrderFailed = errorOfItem(result, 2) !== undefined;
			return [
				...invariantProblems(sim, result),
				...retryBudgetProblems(requestCount(sim, TARGETS.order), 2),
				...clearErrorProblems(errorOfItem(result, 0), kind.refusal ? kind.apiError : MAY_BE_PLACED),
				...problemIf(
					'fails clearly',
					errorOfItem(result, 1) ? undefined : 'the repeated order did not share the failure',
				),
				...problemIf(
					'fails clearly',
					otherOrderFailed === !placed
						? undefined
						: `the other company's order ${otherOrderFailed ? 'failed' : 'went through'}`,
				),
			];
		},
	};
}

/** Order with Download: the order is placed once, the reads that follow meet the fault. */
function readsAfterOrderCase(kind: FaultKind, mode: FaultMode): LaneCase {
	return {
		name: caseName(kind, mode),
		async run(sim) {
			injectFault(sim, TARGETS.documentRead, kind, mode);
			const result = await runLibreBor(sim, {
				resource: 'document',
				operation: 'order',
				nif: 'B64717838',
				year: YEAR,
				options: { download: true, pollInterval: 1, timeout: ACTION_TIMEOUT_S },
			});
			const reads = requestCount(sim, TARGETS.documentRead);
			const error = firstError(result);
			const problems = [
				...invariantProblems(sim, result),
				...retryBudgetProblems(requestCount(sim, TARGETS.order), 1),
			];
			if (kind.transient && mode === 'once') {
				const noFile = result.items[0]?.binary?.data ? undefined : 'no file in the output';
				return [...problems, ...recoveryProblems(error, noFile, reads)];
			}
			// The fault strikes the reads only: the order itself always goes through.
			const documentId = sim.state.documents[0]?.id;
			return [
				...problems,
				...persistentFaultProblems(kind, TARGETS.documentRead, error, kind.apiError, reads),
				...problemIf(
					'names the placed document',
					documentId === undefined
						? 'no order was placed before the reads failed'
						: tellsHowToResume(errorText(error), documentId)
							? undefined
							: `the error does not say that document ${documentId} was ordered`,
				),
			];
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
