import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ActionResult } from '../../tools/engine/index.mts';
import type { RequestMatcher, Simulator } from '../../tools/simulator/index.mts';
import { requestMatches } from '../../tools/simulator/requestMatcher.mts';
import { visibleText } from '../support/libreBor.mts';
import { problemIf, TARGETS, type Problem } from './faultCase.mts';
import type { FaultKind } from './faultKinds.mts';

/** A read is tried again 3 times at most (docs/operations.md, Retries). */
const RETRIES = 3;
/** The run's pacer stops waiting out 429 and 503 after 6 pauses in a row with no progress. */
const PAUSES_WITHOUT_PROGRESS = 6;

/**
 * The tries of a read whose fault never ends: the first and each retry; 429 and 503 from the API
 * cost no retries, as the run's pacer waits them out until it sees no progress.
 */
function attemptsWhenPersistent(fault: { status?: number }, origin?: string): number {
	const throttle = fault.status === 429 || fault.status === 503;
	return throttle && origin !== 'download' ? PAUSES_WITHOUT_PROGRESS : 1 + RETRIES;
}

const looksRaw = (text: string) => /\[object Object\]|\n\s+at |^undefined$|^Error$/.test(text);

/**
 * A NodeApiError or NodeOperationError whose message names the problem and whose description says
 * what to do: what `advice` asks for, when given.
 */
export function clearErrorProblems(error: unknown, expected: RegExp, advice?: RegExp): Problem[] {
	const problem = (detail: string) => problemIf('fails clearly', detail);
	if (!error) return problem('it did not fail');
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) {
		return problem(
			`it failed with a ${(error as Error)?.constructor?.name ?? typeof error}, not a node error: ${String(error)}`,
		);
	}
	const description = error.description ?? '';
	if (!expected.test(error.message))
		return problem(`the message "${error.message}" does not match ${expected}`);
	if (looksRaw(error.message)) return problem(`the message is raw: "${error.message}"`);
	if (description.trim() === '' || looksRaw(description))
		return problem(`the description is missing or raw: "${description}"`);
	if (advice && !advice.test(description))
		return problem(`the description "${description}" does not match ${advice}`);
	return [];
}

/**
 * A run whose fault struck once, within the retry budget: it worked (`wrongOutcome` says how it
 * did not) after the failed request and one retry.
 */
export function recoveryProblems(
	error: unknown,
	wrongOutcome: string | undefined,
	sent: number,
): Problem[] {
	return problemIf(
		'recovers',
		error
			? `it failed: ${(error as Error).message}`
			: (wrongOutcome ??
					(sent === 2 ? undefined : `${sent} requests, expected the failed one and one retry`)),
	);
}

/** A run whose fault outlasted the retries: a clear error, and the retry budget spent and no more. */
export function persistentFaultProblems(
	kind: FaultKind,
	target: RequestMatcher,
	error: unknown,
	expected: RegExp,
	sent: number,
	advice?: RegExp,
): Problem[] {
	const attempts = kind.transient ? attemptsWhenPersistent(kind.fault, target.origin) : 1;
	return [...clearErrorProblems(error, expected, advice), ...retryBudgetProblems(sent, attempts)];
}

/** The password and its Basic encoding appear nowhere in the text. */
export function secretProblems(text: string, password: string): Problem[] {
	const encoded = Buffer.from(`:${password}`).toString('base64').slice(4);
	return problemIf(
		'no secret',
		text.includes(password) || text.includes(encoded)
			? 'the password appears in the output or an error'
			: undefined,
	);
}

/** Everything a user or n8n's database could get from an error. */
export function errorText(error: unknown): string {
	if (!error || typeof error !== 'object') return String(error);
	const { message, description, stack, context, cause } = error as Record<string, unknown>;
	return JSON.stringify({ message, description, stack, context, cause: String(cause) });
}

export const requestCount = (sim: Simulator, target: RequestMatcher) =>
	sim.requests.filter((request) => requestMatches(target, request)).length;

export const retryBudgetProblems = (sent: number, expected: number): Problem[] =>
	problemIf(
		'retry budget',
		sent === expected
			? undefined
			: `${sent} requests went to the failing endpoint, expected ${expected}`,
	);

/** At most one order request per NIF and year, and no more orders received than that. */
function duplicateOrderProblems(sim: Simulator): Problem[] {
	const perKey = new Map<string, number>();
	for (const request of sim.requests.filter((request) => requestMatches(TARGETS.order, request))) {
		const key = `${request.form.nif}/${request.form.year}`;
		perKey.set(key, (perKey.get(key) ?? 0) + 1);
	}
	return [
		...[...perKey]
			.filter(([, count]) => count > 1)
			.flatMap(([key, count]) =>
				problemIf('no duplicate order', `${count} order requests for ${key}`),
			),
		...problemIf(
			'no duplicate order',
			sim.state.ordersReceived > perKey.size
				? `${sim.state.ordersReceived} orders for ${perKey.size} documents`
				: undefined,
		),
	];
}

/** What holds for every action run, whatever the fault: no password anywhere, no order sent twice. */
export function invariantProblems(sim: Simulator, result: ActionResult): Problem[] {
	const text = visibleText(result) + errorText(result.engineError);
	return [...secretProblems(text, sim.credentials.password), ...duplicateOrderProblems(sim)];
}
