import { MAX_PAUSES_WITHOUT_PROGRESS } from '../../nodes/LibreBor/helpers/pacer.ts';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { RETRY_BUDGET } from '../../nodes/LibreBor/transport/retryPolicy.ts';
import type { RequestMatcher, Simulator } from '../../tools/simulator/index.mts';
import { requestMatches } from '../../tools/simulator/request-matcher.mts';
import type { Problem } from './fault-case.mts';

/** Every try of a read that keeps failing: the first and each retry. */
export const ATTEMPTS_PER_READ = 1 + RETRY_BUDGET.maxRetries;

/** 429 and 503 from the API cost no retries: the run's pacer waits them out until it sees no progress. */
export function attemptsWhenPersistent(fault: { status?: number }, origin?: string): number {
	const throttle = fault.status === 429 || fault.status === 503;
	return throttle && origin !== 'download' ? MAX_PAUSES_WITHOUT_PROGRESS : ATTEMPTS_PER_READ;
}

const ORDER_PATH = /^\/v2\/(documents\/)?order\/$/;

const looksRaw = (text: string) => /\[object Object\]|\n\s+at |^undefined$|^Error$/.test(text);

/** A NodeApiError or NodeOperationError whose message names the problem and whose description says what to do. */
export function clearErrorProblems(error: unknown, expected: RegExp): Problem[] {
	const problem = (detail: string): Problem[] => [{ check: 'fails clearly', detail }];
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
	return [];
}

/** The password and its Basic encoding appear nowhere in the text. */
export function secretProblems(text: string, password: string): Problem[] {
	const encoded = Buffer.from(`:${password}`).toString('base64').slice(4);
	return text.includes(password) || text.includes(encoded)
		? [{ check: 'no secret', detail: 'the password appears in the output or an error' }]
		: [];
}

/** Everything a user or n8n's database could get from an error. */
export function errorText(error: unknown): string {
	if (!error || typeof error !== 'object') return String(error);
	const { message, description, stack, context, cause } = error as Record<string, unknown>;
	return JSON.stringify({ message, description, stack, context, cause: String(cause) });
}

export const requestCount = (sim: Simulator, target: RequestMatcher) =>
	sim.requests.filter((request) => requestMatches(target, request)).length;

export function retryBudgetProblems(
	sent: number,
	expected: number | { atMost: number },
): Problem[] {
	const ok = typeof expected === 'number' ? sent === expected : sent <= expected.atMost;
	const wanted = typeof expected === 'number' ? `${expected}` : `at most ${expected.atMost}`;
	return ok
		? []
		: [
				{
					check: 'retry budget',
					detail: `${sent} requests went to the failing endpoint, expected ${wanted}`,
				},
			];
}

/** At most one order request per NIF and year, and no more orders received than that. */
export function duplicateOrderProblems(sim: Simulator): Problem[] {
	const perKey = new Map<string, number>();
	for (const request of sim.requests) {
		if (request.method !== 'POST' || !ORDER_PATH.test(request.path)) continue;
		const key = `${request.form.nif}/${request.form.year}`;
		perKey.set(key, (perKey.get(key) ?? 0) + 1);
	}
	const repeated = [...perKey].filter(([, count]) => count > 1);
	const problems: Problem[] = repeated.map(([key, count]) => ({
		check: 'no duplicate order',
		detail: `${count} order requests for ${key}`,
	}));
	if (sim.state.ordersReceived > perKey.size) {
		problems.push({
			check: 'no duplicate order',
			detail: `${sim.state.ordersReceived} orders for ${perKey.size} documents`,
		});
	}
	return problems;
}
