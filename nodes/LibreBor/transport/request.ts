import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
} from 'n8n-workflow';

import { DEFAULT_PACING, pacerOf } from '../helpers/pacer';
import { resolveBaseUrl } from './baseUrl';
import {
	connectionError,
	notConfirmedError,
	statusError,
	unexpectedBodyError,
	type ConnectionFailure,
	type ErrorContext,
} from './errors';
import { parseResponseBody, type ParsedBody } from './responseBody';
import { withRetries, type TryOutcome } from './retryLoop';
import { isThrottle, parseRetryAfter, RETRYABLE_STATUSES } from './retryPolicy';

export type LibreBorFunctions = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export const CREDENTIAL_TYPE = 'libreBorApi';
export const DEFAULT_TIMEOUT_MS = 30_000;

interface ApiRequest {
	method: 'GET' | 'POST';
	/** Path below the base URL, such as `/alerts/`. */
	path: string;
	/** Sent as form fields, as the API expects for POST. */
	form?: Record<string, string>;
	/**
	 * `idempotent`: tried again on 429, 5xx and lost connections within the retry budget.
	 * `never`: sent once, for calls that spend money.
	 */
	retry: 'idempotent' | 'never';
	/** Statuses the caller handles itself instead of getting an error. */
	acceptStatuses?: number[];
	itemIndex?: number;
	timeoutMs?: number;
	lostAnswer?: ErrorContext['lostAnswer'];
}

/** What every call of `api/` takes besides its own arguments: the item it serves and its timeout. */
export type RequestSettings = Pick<ApiRequest, 'itemIndex' | 'timeoutMs'>;

export interface ApiResponse {
	statusCode: number;
	body: ParsedBody;
	/** The parsed JSON, for 2xx answers and accepted statuses with a JSON body. */
	json: unknown;
	/** An earlier attempt of this request failed in a way that may hide that LibreBOR carried it out. */
	maybeDoneBefore: boolean;
}

interface RawResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
}

type Attempt = { response: RawResponse } | { failure: ConnectionFailure };

const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)|ALTNAME/;

function findErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

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
			},
		};
	}
}

async function buildOptions(
	context: LibreBorFunctions,
	request: ApiRequest,
): Promise<IHttpRequestOptions> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE, request.itemIndex ?? 0);
	const resolved = resolveBaseUrl(credentials);
	if ('problem' in resolved) {
		throw new NodeOperationError(context.getNode(), resolved.problem, {
			itemIndex: request.itemIndex,
			description: 'Open the LibreBOR credential and fix the base URL.',
		});
	}
	const { baseUrl } = resolved;
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
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
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
		const retryable = idempotent && !failure.untrustedCertificate;
		return { error: connectionError(errorContext, failure), retryable };
	}
	const { statusCode, headers } = attempt.response;
	const body = parseResponseBody(attempt.response.body, headers);
	const accepted = request.acceptStatuses?.includes(statusCode) ?? false;
	if ((statusCode >= 200 && statusCode < 300) || accepted)
		return { value: { statusCode, body, accepted } };
	const retryAfterMs = parseRetryAfter(headers['retry-after']);
	return {
		error: statusError(errorContext, statusCode, body, retryAfterMs),
		retryable: idempotent && RETRYABLE_STATUSES.has(statusCode),
		retryAfterMs,
		throttleStatus: isThrottle(statusCode) ? statusCode : undefined,
	};
}

/**
 * The one way the nodes talk to the LibreBOR API: HTTPS to the credential's base URL,
 * Basic credentials applied by the credential type, bounded retries for idempotent calls,
 * and errors that say what to do.
 */
export async function libreBorRequest(
	this: LibreBorFunctions,
	request: ApiRequest,
): Promise<ApiResponse> {
	const options = await buildOptions(this, request);
	const errorContext: ErrorContext = {
		node: this.getNode(),
		itemIndex: request.itemIndex,
		operation: `${request.method} ${request.path}`,
		lostAnswer: request.lostAnswer,
	};
	let maybeDoneBefore = false;
	const run = {
		context: this,
		errorContext,
		// Money is never paced nor retried: an order goes out once, on its own.
		pacer: request.retry === 'idempotent' ? pacerOf(this, DEFAULT_PACING) : undefined,
		what: `The request ${errorContext.operation}`,
	};
	const { statusCode, body, accepted } = await withRetries(run, async () => {
		const attempt = await sendOnce(this, { ...options, headers: { ...options.headers } });
		const outcome = outcomeOf(attempt, request, errorContext);
		// A 5xx or a lost connection may come after LibreBOR did the work; a 429 or 503 comes before.
		if ('error' in outcome && outcome.throttleStatus === undefined) maybeDoneBefore = true;
		return outcome;
	});
	if (body.kind !== 'json' && !accepted) throw unexpectedBodyError(errorContext, statusCode, body);
	return { statusCode, body, json: body.kind === 'json' ? body.value : undefined, maybeDoneBefore };
}

/** The JSON object of an answer, or an error that says the answer had an unexpected shape. */
export function expectObject(
	this: LibreBorFunctions,
	response: ApiResponse,
	operation: string,
	itemIndex?: number,
): IDataObject {
	const value = response.json;
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	throw unexpectedBodyError({ node: this.getNode(), itemIndex, operation }, response.statusCode, {
		kind: 'json',
		value,
	});
}

/**
 * The JSON object of a call that changes something. Its `result` says `success` when LibreBOR
 * did it; any other `result` is a failure, whatever the status.
 */
export function expectSuccess(
	this: LibreBorFunctions,
	response: ApiResponse,
	operation: string,
	itemIndex?: number,
): IDataObject {
	const answer = expectObject.call(this, response, operation, itemIndex);
	if (typeof answer.result === 'string' && answer.result !== 'success') {
		throw notConfirmedError(
			{ node: this.getNode(), itemIndex, operation },
			response.statusCode,
			response.body,
			answer.result,
		);
	}
	return answer;
}
