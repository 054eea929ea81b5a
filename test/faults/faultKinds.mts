import type { Fault } from '../../tools/simulator/index.mts';

/**
 * The request timeout the action cases set (the node's `options.timeout`, in seconds): short, as
 * the slow cases wait it out, but 2 s, since the first download of a lane, which starts at the same
 * moment as every other lane, took more than 1 s on a loaded 2-core machine.
 */
export const ACTION_TIMEOUT_S = 2;
/** Long enough past that timeout that the answer surely comes too late. */
const SLOW_ANSWER_MS = 3 * ACTION_TIMEOUT_S * 1000;

export interface FaultKind {
	name: string;
	/** What the simulator does to the request (where and how often is decided per case). */
	fault: Omit<Fault, 'method' | 'path' | 'origin' | 'times' | 'afterHandling'>;
	/** Whether the node retries it on a read: it then recovers when it happens fewer times than the retry budget. */
	transient: boolean;
	/** What the error message says when the API keeps doing it. */
	apiError: RegExp;
	/** What the description of that error tells the user to do, whichever operation met it. */
	advice: RegExp;
	/**
	 * What the error message says when the file host behind a download link does it; absent when it
	 * cannot go wrong there (a file host may send any bytes, so a body is never malformed).
	 */
	downloadError?: RegExp;
	/** What the description of the file host's error tells the user to do. */
	downloadAdvice?: RegExp;
	/** The service refused the request and did nothing; any other fault may hide work done (matters for orders). */
	refusal?: boolean;
}

/** The advice of an answer that is no JSON: what may stand between the node and LibreBOR. */
const NOT_JSON_ADVICE =
	/A proxy, a maintenance page or a wrong base URL can cause this\. Check the base URL of the credential/;
const NETWORK_ADVICE = /Check the network and the base URL of the credential/;
/** A download link's host refused it: the link may have expired. */
const REFRESH_LINK = /Get the document again with the Get operation for a fresh link/;
const DOWNLOAD_LATER =
	/it was retried within a small budget\. Try the Download operation again later/;

const serverError = (status: number): FaultKind => ({
	name: `${status}`,
	// Retry-After: 0 keeps the suite fast; the backoff without it is exercised by 429 and the dropped connection.
	fault: { status, retryAfter: 0 },
	transient: true,
	apiError: new RegExp(`LibreBOR had a server error \\(${status}\\)`),
	// The pacer waits out 503 as a throttle until it sees no progress; other server errors are retried.
	advice:
		status === 503
			? /LibreBOR asked the node to slow down/
			: /reads were retried within a small budget\. Try again later/,
	downloadError: new RegExp(`download host answered ${status}`),
	downloadAdvice: REFRESH_LINK,
});

export const SLOW_ANSWER: FaultKind = {
	name: 'slow answer past the timeout',
	// The answer never comes in time. Dropping it in the end, rather than handling the request
	// late, keeps a late request from changing the account of the next case.
	fault: { delayMs: SLOW_ANSWER_MS, drop: true },
	transient: true,
	apiError: /LibreBOR did not answer in time/,
	advice: NETWORK_ADVICE,
	downloadError: /Could not download document/,
	downloadAdvice: DOWNLOAD_LATER,
};

export const REFUSED_PASSWORD: FaultKind = {
	name: '401',
	fault: { status: 401, body: '{"detail":"Invalid username/password."}' },
	transient: false,
	apiError: /LibreBOR refused the API user or password \(401\)/,
	advice: /user panel, API > Credentials/,
	downloadError: /download host answered 401/,
	downloadAdvice: REFRESH_LINK,
	refusal: true,
};

const throttle = (name: string, fault: FaultKind['fault']): FaultKind => ({
	name,
	fault,
	transient: true,
	apiError: /LibreBOR (is|kept) rate limiting the requests \(429\)/,
	advice: /Parallel Requests/,
	downloadError: /download host answered 429/,
	downloadAdvice: REFRESH_LINK,
	refusal: true,
});

export const FAULT_KINDS: FaultKind[] = [
	throttle('429 with Retry-After', { status: 429, retryAfter: 0 }),
	throttle('429 without Retry-After', { status: 429 }),
	serverError(500),
	serverError(502),
	serverError(503),
	serverError(504),
	SLOW_ANSWER,
	{
		name: 'dropped connection',
		fault: { drop: true },
		transient: true,
		apiError: /Could not reach LibreBOR/,
		advice: NETWORK_ADVICE,
		downloadError: /Could not download document/,
		downloadAdvice: DOWNLOAD_LATER,
	},
	{
		name: 'malformed JSON',
		fault: { status: 200, contentType: 'application/json', body: '{"result": "succ' },
		transient: false,
		apiError: /with text that is not JSON \("\{"result": "succ"\) instead of the expected JSON/,
		advice: NOT_JSON_ADVICE,
	},
	{
		name: 'HTML page',
		fault: {
			status: 200,
			contentType: 'text/html; charset=utf-8',
			body: '<!doctype html><html><head><title>Mantenimiento</title></head><body><h1>Volvemos enseguida</h1></body></html>',
		},
		transient: false,
		apiError:
			/with an HTML page \("Mantenimiento Volvemos enseguida"\) instead of the expected JSON/,
		advice: NOT_JSON_ADVICE,
	},
	{
		name: 'empty body',
		fault: { status: 200, body: '' },
		transient: false,
		apiError: /with an empty body instead of the expected JSON/,
		advice: NOT_JSON_ADVICE,
	},
	REFUSED_PASSWORD,
];
