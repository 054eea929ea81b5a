import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import type { NodeRun } from '../run/nodeRun';
import { excerpt, type ParsedBody } from './responseBody';

export interface ErrorContext {
	node: INode;
	itemIndex?: number;
	/** What the request was doing, e.g. "GET /alerts/". Never holds credentials. */
	operation: string;
	/** For requests that spend money: what to tell the user when the answer is lost. */
	lostAnswer?: { message: string; description: string };
}

const SUBSCRIPTION_HINT =
	'Alerts and documents are beta features of the LibreBOR API: they need an API subscription and a request to the provider to enable them. Ordering a document also needs a positive prepaid balance, topped up in the LibreBOR user panel, Documents section.';

/** The registry look-ups' error body, `{ "error": { "message", "code" } }`, as "message (code)". */
function lookupError(error: unknown): string | undefined {
	if (!error || typeof error !== 'object') return undefined;
	const { message, code } = error as Record<string, unknown>;
	if (typeof message !== 'string' || !message.trim()) return undefined;
	return excerpt(typeof code === 'string' && code ? `${message} (${code})` : message);
}

/** What the server's answer says went wrong, capped, when it says anything. */
export function serverMessage(body: ParsedBody): string | undefined {
	if (body.kind === 'json' && body.value && typeof body.value === 'object') {
		const record = body.value as Record<string, unknown>;
		for (const key of ['message', 'detail', 'error', 'errors']) {
			const value = record[key];
			// Capped: a server's text must not flood the message or the execution data.
			if (typeof value === 'string' && value.trim()) return excerpt(value);
		}
		const nested = lookupError(record.error);
		if (nested) return nested;
	}
	if (body.kind === 'text' || body.kind === 'html') return excerpt(body.text);
	return undefined;
}

function describeStatus(
	status: number,
	retryAfterMs?: number,
	sentOnce = false,
): { message: string; description: string } {
	if (status === 401) {
		return {
			message: 'LibreBOR refused the API user or password (401)',
			description:
				'Check the API user and password in the LibreBOR credential (user panel, API > Credentials) and that the environment (production or sandbox) matches the account.',
		};
	}
	if (status === 402 || status === 403) {
		return {
			message: `LibreBOR refused access to this feature (${status})`,
			description: SUBSCRIPTION_HINT,
		};
	}
	if (status === 404) {
		return {
			message: 'LibreBOR did not find what was asked for (404)',
			description:
				'Check the identifier (NIF, alert ID or document ID). If every call answers 404, check the base URL of the credential: it must end in the version segment, such as /v2.',
		};
	}
	if (status === 429) {
		const wait =
			retryAfterMs === undefined
				? ''
				: ` LibreBOR asked to wait ${Math.ceil(retryAfterMs / 1000)} s.`;
		const refused = sentOnce
			? 'LibreBOR refused it, and it was not sent again: a request that spends money is sent once.'
			: 'they were retried within a small budget and still refused.';
		return {
			message: 'LibreBOR is rate limiting the requests (429)',
			description: `Too many requests in a short time; ${refused}${wait} Lower the node's concurrency or space the executions out.`,
		};
	}
	if (status >= 300 && status < 400) {
		return {
			message: `LibreBOR answered with a redirect (${status}), which the node does not follow`,
			description:
				'The password is never sent on a redirect. Check the base URL of the credential: use the final HTTPS address of the API, ending in its version segment, such as /v2.',
		};
	}
	if (status >= 500) {
		return {
			message: `LibreBOR had a server error (${status})`,
			description:
				'The service failed or is unavailable; reads were retried within a small budget. Try again later; if it persists, contact LibreBOR support.',
		};
	}
	return {
		message: `LibreBOR answered with an unexpected status (${status})`,
		description: 'Check the values sent; the answer from the service is shown below.',
	};
}

/**
 * The one way the nodes make an error about a request: the message and what to do for the user,
 * the status and the item for n8n, and what the request was doing. Never given credentials.
 */
export function apiError(
	context: ErrorContext,
	status: number | undefined,
	message: string,
	description: string,
): NodeApiError {
	const response: JsonObject = { operation: context.operation };
	return new NodeApiError(context.node, response, {
		message,
		description,
		httpCode: status === undefined ? undefined : String(status),
		itemIndex: context.itemIndex,
	});
}

/** For a call that spends money, an answer that does not say it failed may hide that it worked. */
function lostAnswerError(
	context: ErrorContext,
	status: number,
	what: string,
): NodeApiError | undefined {
	if (!context.lostAnswer) return undefined;
	return apiError(
		context,
		status,
		context.lostAnswer.message,
		`${context.lostAnswer.description} (LibreBOR answered ${what}.)`,
	);
}

export function statusError(
	context: ErrorContext,
	status: number,
	body: ParsedBody,
	retryAfterMs?: number,
): NodeApiError {
	if (status >= 500) {
		const lost = lostAnswerError(context, status, `with a server error, ${status}`);
		if (lost) return lost;
	}
	// A request that spends money (one with a lost-answer text) is never retried.
	const sentOnce = context.lostAnswer !== undefined;
	const { message, description } = describeStatus(status, retryAfterMs, sentOnce);
	const said = serverMessage(body);
	return apiError(
		context,
		status,
		message,
		said ? `${description} LibreBOR said: "${said}"` : description,
	);
}

export function unexpectedBodyError(
	context: ErrorContext,
	status: number,
	body: ParsedBody,
): NodeApiError {
	const lost = lostAnswerError(context, status, `${status} with an answer that could not be read`);
	if (lost) return lost;
	const shape =
		body.kind === 'empty'
			? 'an empty body'
			: body.kind === 'html'
				? `an HTML page ("${excerpt(body.text, 120)}")`
				: body.kind === 'text'
					? `text that is not JSON ("${excerpt(body.text, 120)}")`
					: 'JSON of an unexpected shape';
	const advice =
		'A proxy, a maintenance page or a wrong base URL can cause this. Check the base URL of the credential and try again later.';
	// JSON that says what went wrong ({"error": "..."}), which a page's excerpt above already shows.
	const said = body.kind === 'json' ? serverMessage(body) : undefined;
	return apiError(
		context,
		status,
		`LibreBOR answered ${context.operation} with ${shape} instead of the expected JSON`,
		said ? `${advice} LibreBOR said: "${said}"` : advice,
	);
}

/** A 2xx answer whose `result` is not "success": LibreBOR did not do what was asked. */
export function notConfirmedError(
	context: ErrorContext,
	status: number,
	body: ParsedBody,
	result: string,
): NodeApiError {
	const said = serverMessage(body);
	return apiError(
		context,
		status,
		`LibreBOR did not confirm ${context.operation}: it answered with result "${excerpt(result, 40)}"`,
		`Nothing shows that the change was made.${said ? ` LibreBOR said: "${said}"` : ''} Check the value sent, then run the item again.`,
	);
}

export interface ConnectionFailure {
	code?: string;
	timedOut: boolean;
	/** The server's certificate was refused: trying again cannot help. */
	untrustedCertificate: boolean;
	/** What n8n's outbound protection said when it refused the request: nothing was sent. */
	blockedByN8n?: string;
}

/**
 * n8n replaces an error message that mentions a Node error code (ECONNRESET, ENOTFOUND…)
 * with a generic text, so the code goes in the description.
 */
export function connectionError(context: ErrorContext, failure: ConnectionFailure): NodeApiError {
	const { code, timedOut } = failure;
	const codeNote = code ? ` (network error ${code})` : '';
	if (failure.untrustedCertificate) {
		return apiError(
			context,
			undefined,
			'The HTTPS certificate of the LibreBOR server is not trusted; nothing was sent',
			`Check the base URL of the credential. A custom server needs a certificate that n8n trusts (for a private CA, start n8n with NODE_EXTRA_CA_CERTS).${codeNote}`,
		);
	}
	if (failure.blockedByN8n !== undefined) {
		return apiError(
			context,
			undefined,
			`n8n's outbound protection blocked ${context.operation}; nothing was sent`,
			`${failure.blockedByN8n} The base URL of the credential leads to an address n8n refuses (N8N_SSRF_PROTECTION_ENABLED). If it is the right one (a proxy on a private network, say), an n8n administrator can allow its host with N8N_SSRF_ALLOWED_HOSTNAMES.`,
		);
	}
	if (context.lostAnswer) {
		return apiError(
			context,
			undefined,
			context.lostAnswer.message,
			`${context.lostAnswer.description}${codeNote}`,
		);
	}
	const what = timedOut ? 'LibreBOR did not answer in time' : 'Could not reach LibreBOR';
	return apiError(
		context,
		undefined,
		`${what} for ${context.operation}`,
		`Check the network and the base URL of the credential. Reads were retried within a small budget.${codeNote}`,
	);
}

const budgetMinutesOf = (run: NodeRun) =>
	Math.round((run.pacer.settings.budgetMs / 60_000) * 100) / 100;

function itemsDoneOf(run: NodeRun): string {
	const { done, total } = run.progress;
	return total > 0 ? `${done} of ${total} items were done by then` : 'nothing more was sent';
}

/** A request sent once (an order) whose turn in the account's window would come after the run's time budget. */
export function turnPastBudgetError(context: ErrorContext, run: NodeRun): NodeApiError {
	return apiError(
		context,
		undefined,
		`Not sent: LibreBOR's rate limit leaves room for it only after the run's time budget of ${budgetMinutesOf(run)} min; ${itemsDoneOf(run)}`,
		"A request that spends money is sent only into room the account's rate limit leaves, never to be refused; nothing was sent for it. Raise the Time Budget option, or run it when the account is less busy (another execution may be spending its requests).",
	);
}

/** An editor's list LibreBOR throttled longer than the editor can wait: no budget, items or options there to speak of. */
function listThrottledError(
	context: ErrorContext,
	status: number,
	retryAfterMs?: number,
): NodeApiError {
	const when =
		retryAfterMs === undefined ? 'in a moment' : `in ${Math.ceil(retryAfterMs / 1000)} s`;
	return apiError(
		context,
		status,
		`LibreBOR is rate limiting the account (${status}): try again ${when}`,
		"The list does not keep the editor waiting for LibreBOR's limit; the account's running executions may be spending its requests.",
	);
}

/** A throttled request the run can no longer wait for: its time budget is spent or nothing gets through. */
export function budgetSpentError(
	context: ErrorContext,
	status: number,
	run: NodeRun,
	retryAfterMs?: number,
): NodeApiError {
	if (run.forEditor) return listThrottledError(context, status, retryAfterMs);
	const why =
		run.pacer.stoppedBecause === 'budget'
			? `the run's time budget of ${budgetMinutesOf(run)} min is spent`
			: 'LibreBOR refused every request for too long';
	const done = itemsDoneOf(run);
	const what =
		status === 429
			? 'LibreBOR kept rate limiting the requests (429)'
			: `LibreBOR had a server error (${status}) again and again`;
	const asked =
		retryAfterMs === undefined
			? ''
			: ` LibreBOR asked to wait ${Math.ceil(retryAfterMs / 1000)} s.`;
	return apiError(
		context,
		status,
		`${what}: stopped because ${why}; ${done}`,
		`LibreBOR asked the node to slow down; it waited and sent fewer requests at once.${asked} To resume, run the node again on the items that were not done (with "On Error: Continue", they are the ones with an error). Raise the Time Budget option, lower Parallel Requests, or run it when the account is less busy.`,
	);
}

/**
 * Whether the error says LibreBOR kept throttling (429 or 503) beyond what the run could wait: a
 * request that is paced ends so (see budgetSpentError), never on the first throttle.
 */
export function isThrottleError(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError && (error.httpCode === '429' || error.httpCode === '503');
}
