import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
	type ITriggerFunctions,
} from 'n8n-workflow';

import type { RequestSettings } from '../run/nodeRun';
import { accountKey } from './account';
import { resolveBaseUrl } from './baseUrl';
import { findErrorCode } from './errorCauses';
import {
	connectionError,
	notConfirmedError,
	statusError,
	unexpectedBodyError,
	type ConnectionFailure,
	type ErrorContext,
} from './errors';
import { retryAfterMs } from './headers';
import { outboundProtectionRefusal } from './outboundProtection';
import { parseResponseBody, type ParsedBody } from './responseBody';
import { markNeverSent, withRetries, type TryOutcome } from './retryLoop';
import { isThrottle, RETRYABLE_STATUSES } from './retryPolicy';

export type LibreBorFunctions =
	| IExecuteFunctions
	| IPollFunctions
	| ITriggerFunctions
	| ILoadOptionsFunctions;

export const CREDENTIAL_TYPE = 'libreBorApi';

export interface ApiRequest {
	method: 'GET' | 'POST';
	/** Path below the base URL, such as `/alerts/`. */
	path: string;
	/** Sent as form fields, as the API expects for POST. */
	form?: Record<string, string>;
	/**
	 * Every request is paced with the run's other requests. `idempotent`: tried again on 429, 5xx
	 * and lost connections within the retry budget. `never`: sent once, for calls that spend money.
	 */
	retry: 'idempotent' | 'never';
	/** Statuses the caller handles itself instead of getting an error. */
	acceptStatuses?: readonly number[];
	lostAnswer?: ErrorContext['lostAnswer'];
}

export interface ApiResponse {
	statusCode: number;
	body: ParsedBody;
	/** The parsed JSON, for 2xx answers and accepted statuses with a JSON body. */
	json: unknown;
	/** An earlier attempt of this request failed in a way that may hide that LibreBOR carried it out. */
	maybeDoneBefore: boolean;
	/** The request the answer is to, for an error about the answer. */
	errorContext: ErrorContext;
}

interface RawResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
}

type Attempt = { response: RawResponse } | { failure: ConnectionFailure };

const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)|ALTNAME/;

function isTimeout(code: string | undefined, error: unknown): boolean {
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') return true;
	return /timeout/i.test(String((error as { message?: unknown })?.message ?? ''));
}

async function sendOnce(
	context: LibreBorFunctions,
	options: IHttpRequestOptions,
): Promise<Attempt> {
	try {
		const response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			options,
		)) as RawResponse;
		return { response };
	} catch (error) {
		// The engine's error wraps the low-level request, credentials included: keep only the code.
		const code = findErrorCode(error);
		return {
			failure: {
				code,
				timedOut: isTimeout(code, error),
				untrustedCertificate: CERTIFICATE_ERROR.test(code ?? ''),
				blockedByN8n: outboundProtectionRefusal(error),
			},
		};
	}
}

async function buildOptions(
	context: LibreBorFunctions,
	request: ApiRequest,
	settings: RequestSettings,
): Promise<IHttpRequestOptions> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE, settings.itemIndex ?? 0);
	const resolved = resolveBaseUrl(credentials);
	if ('problem' in resolved) {
		throw new NodeOperationError(context.getNode(), resolved.problem, {
			itemIndex: settings.itemIndex,
			description: 'Open the LibreBOR credential and fix the base URL.',
		});
	}
	const { baseUrl } = resolved;
	// The run starts from what earlier runs learned of this account's limit (first request only).
	const { run } = settings;
	if (!run.forEditor && !run.pacer.knowsAccount) {
		run.pacer.useAccount({ account: accountKey(credentials), store: run.limitStore });
	}
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		headers: { accept: 'application/json' },
		encoding: 'text',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: settings.run.timeoutMs,
	};
	if (request.form) {
		options.body = new URLSearchParams(request.form).toString();
		options.headers = { ...options.headers, 'content-type': 'application/x-www-form-urlencoded' };
	}
	return options;
}

/** A 2xx answer, or one of the statuses the caller handles, read once the retries are over. */
interface Answer {
	statusCode: number;
	body: ParsedBody;
	accepted: boolean;
}

function outcomeOf(
	attempt: Attempt,
	request: ApiRequest,
	errorContext: ErrorContext,
): TryOutcome<Answer> {
	const idempotent = request.retry === 'idempotent';
	if (!('response' in attempt)) {
		const { failure } = attempt;
		// Refused before a byte went out (a certificate n8n does not trust, n8n's outbound
		// protection): trying again cannot help, and an order so refused was not placed.
		if (failure.untrustedCertificate || failure.blockedByN8n !== undefined)
			return { error: markNeverSent(connectionError(errorContext, failure)), retryable: false };
		return { error: connectionError(errorContext, failure), retryable: idempotent };
	}
	const { statusCode, headers } = attempt.response;
	const body = parseResponseBody(attempt.response.body, headers);
	const accepted = request.acceptStatuses?.includes(statusCode) ?? false;
	if ((statusCode >= 200 && statusCode < 300) || accepted)
		return { value: { statusCode, body, accepted } };
	const waitAsked = retryAfterMs(headers);
	return {
		error: statusError(errorContext, statusCode, body, waitAsked),
		retryable: idempotent && RETRYABLE_STATUSES.has(statusCode),
		retryAfterMs: waitAsked,
		throttleStatus: isThrottle(statusCode) ? statusCode : undefined,
	};
}

/**
 * The one way the nodes talk to the LibreBOR API: HTTPS to the credential's base URL,
 * Basic credentials applied by the credential type, the run's pacing and timeout, bounded
 * retries for idempotent calls, and errors that say what to do.
 */
export async function libreBorRequest(
	this: LibreBorFunctions,
	request: ApiRequest,
	settings: RequestSettings,
): Promise<ApiResponse> {
	const options = await buildOptions(this, request, settings);
	const errorContext: ErrorContext = {
		node: this.getNode(),
		itemIndex: settings.itemIndex,
		operation: `${request.method} ${request.path}`,
		lostAnswer: request.lostAnswer,
	};
	let maybeDoneBefore = false;
	const retryRun = {
		errorContext,
		request: settings,
		// Money is never retried: an order waits for its turn, then goes out once.
		sentOnce: request.retry === 'never',
		what: `The request ${errorContext.operation}`,
	};
	const { statusCode, body, accepted } = await withRetries(retryRun, async () => {
		const attempt = await sendOnce(this, { ...options, headers: { ...options.headers } });
		const outcome = outcomeOf(attempt, request, errorContext);
		// A 5xx or a lost connection may come after LibreBOR did the work; a 429 or 503 comes before.
		if ('error' in outcome && outcome.throttleStatus === undefined) maybeDoneBefore = true;
		return outcome;
	});
	if (body.kind !== 'json' && !accepted) throw unexpectedBodyError(errorContext, statusCode, body);
	const json = body.kind === 'json' ? body.value : undefined;
	return { statusCode, body, json, maybeDoneBefore, errorContext };
}

/** The JSON object of an answer, or an error that says the answer had an unexpected shape. */
export function expectObject(response: ApiResponse): IDataObject {
	const value = response.json;
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	throw unexpectedJson(response, value);
}

/** The error for an answer whose JSON (or the part of it given) is not the shape expected. */
export function unexpectedJson(response: ApiResponse, value: unknown = response.json) {
	return unexpectedBodyError(response.errorContext, response.statusCode, { kind: 'json', value });
}

/**
 * The JSON object of a call that changes something. Its `result` says `success` when LibreBOR
 * did it, as the contract says every such answer does; any other `result`, or none, is a failure,
 * whatever the status.
 */
export function expectSuccess(response: ApiResponse): IDataObject {
	const answer = expectObject(response);
	if (answer.result !== 'success') {
		throw notConfirmedError(
			response.errorContext,
			response.statusCode,
			response.body,
			typeof answer.result === 'string' ? answer.result : 'none',
		);
	}
	return answer;
}

/**
 * Whether an accepted 404 is LibreBOR's own "not found" (JSON, as its API answers). A 404 of
 * another kind (a web server's page: a base URL that misses the API) is an error that says so,
 * not an answer about the company or record asked for.
 */
export function isServiceNotFound(response: ApiResponse): boolean {
	if (isPageNotFound(response)) throw statusError(response.errorContext, 404, response.body);
	return response.statusCode === 404;
}

/** A 404 that is not a JSON answer: a web server's page, so a path the server does not know. */
export const isPageNotFound = (response: ApiResponse): boolean =>
	response.statusCode === 404 && response.body.kind !== 'json';
