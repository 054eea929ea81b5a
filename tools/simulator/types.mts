// Shapes of the LibreBOR API resources (see the API spec) and of the simulator's own records.
import type { Clock } from './clock.mts';
import type { PreparationTime } from './documentPreparation.mts';
import type { RateLimit } from './rateLimits/index.mts';

export interface Borme {
	cve: string;
	url: string;
	date: string;
	province: string;
}

export interface Position {
	role: string;
	type: string;
	name_person: string;
	slug_person: string;
}

export interface Announcement {
	date: string;
	year: number;
	branch: string;
	number: number;
	office: string;
	registry_data: string;
}

export interface AlertEntry {
	borme: Borme;
	label: string;
	company: { name: string; slug: string };
	positions: Position[];
	announcement: Announcement;
	total_positions: number;
	[extra: string]: unknown;
}

export interface Alert {
	id: string;
	created_at: string;
	seen_at: string;
	entity_name: string;
	entity_slug: string;
	entity_type: string;
	data: AlertEntry[];
	[extra: string]: unknown;
}

/** What a test may say about an alert it adds; everything left out is generated. */
export interface AlertSpec {
	id?: string;
	created_at?: string;
	seen_at?: string;
	/** Takes the entity (name, slug) from the company directory. */
	nif?: string;
	entity_name?: string;
	entity_slug?: string;
	entity_type?: string;
	/** Label of the generated entry (default `Nombramientos`). */
	label?: string;
	/** One generated entry per label. */
	labels?: string[];
	/** Entries merged over generated ones, one entry each. */
	entries?: Array<Partial<AlertEntry>>;
	/** Used as `data` exactly as given (for malformed or unusual payloads). */
	data?: unknown[];
	/** Extra top-level fields, e.g. to check that clients tolerate unknown fields. */
	extra?: Record<string, unknown>;
}

export interface WatchedEntity {
	type: string;
	name: string;
	slug: string;
	nif: string;
	added_at: string;
}

export interface Company {
	nif: string;
	name: string;
	slug: string;
}

export interface DocumentRecord {
	id: string;
	nif: string;
	year: number;
	type: string;
	send_email: boolean;
	created_at: string;
	orderedAtMs: number;
	/** Its preparation time, when one was drawn or computed at its order (see PreparationTime). */
	preparationMs?: number;
	/** When `finishDocument()` finished it, whatever its preparation time. */
	forcedAtMs?: number;
	downloadToken: string;
}

/** The `document` object returned by GET /documents/<id>/. */
export interface DocumentView {
	id: string;
	status: string;
	download_link: string | null;
	nif: string;
	year: number;
	type: string;
	created_at: string;
}

export type Origin = 'api' | 'download';

export interface LoggedRequest {
	origin: Origin;
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	form: Record<string, string>;
	body: string;
	time: number;
}

export interface RequestMatcher {
	method?: string;
	/** A string matches the path (without query) exactly or as a prefix ending in `*`; a RegExp is tested. */
	path?: string | RegExp;
	origin?: Origin;
}

export interface Fault extends RequestMatcher {
	/** How many matching requests it affects (default 1; Infinity allowed). */
	times?: number;
	status?: number;
	headers?: Record<string, string>;
	retryAfter?: string | number;
	/** Raw body, e.g. malformed JSON, an HTML page, or '' for an empty body. */
	body?: string;
	contentType?: string;
	delayMs?: number;
	/** Destroys the socket without answering. */
	drop?: boolean;
	/** Really handles the request first (state changes happen), then applies the fault to the answer. */
	afterHandling?: boolean;
}

export interface FaultHandle {
	readonly fault: Fault;
	/** Requests this fault has affected so far. */
	readonly hits: number;
	readonly remaining: number;
	cancel(): void;
}

export interface SimulatorOptions {
	username?: string;
	password?: string;
	/** Listen address (default 127.0.0.1); URLs always use `localhost`. */
	host?: string;
	port?: number;
	downloadPort?: number;
	/** GET /alerts/ returns only the latest N unread alerts (default unlimited). */
	alertListCap?: number;
	/**
	 * How long a document takes to prepare once a worker has it (default 0): a number of ms, a
	 * range drawn per document (`{ minMs, maxMs, seed }`) or a function of the order.
	 */
	documentProcessingMs?: PreparationTime;
	/** Documents prepared at once; the others wait their turn (default unlimited). */
	documentWorkers?: number;
	/** Size of the downloadable file (default 20 KiB). */
	documentSizeBytes?: number;
	/** Caps the download host's speed, like a real network; 0 or absent means as fast as loopback goes. */
	downloadBytesPerSecond?: number;
	/** The download host sends files chunked, without a Content-Length (default false). */
	downloadChunked?: boolean;
	/** Prepaid balance in euros (default 100). */
	balance?: number;
	orderPrice?: number;
	/** Status of a finished document (default `completed`). */
	finishedStatus?: string;
	/** Replaces the download link of finished documents; returning null gives no link. */
	downloadLinkOverride?: (document: DocumentView) => string | null;
	/** Makes /v2/documents/... answer a route-level 404 so that the /v2/order/ alias is exercised. */
	disablePrimaryDocumentPaths?: boolean;
	/** Shape of route-level 404s: Django's HTML page (default) or DRF's `{"detail":"Not found."}`. */
	routeNotFoundStyle?: 'html' | 'json';
	/** Added delay on every API answer, in milliseconds of the simulator's clock (its network latency). */
	latencyMs?: number;
	/** Requests per second the API allows, as a token bucket, before answering 429 (default: no limit). */
	rateLimitPerSecond?: number;
	/** The API's rate limit, in any shape (see rateLimits/); takes precedence over rateLimitPerSecond. */
	rateLimit?: RateLimit;
	/** The time the simulator reads (default: real time), e.g. a ManualClock for virtual time. */
	clock?: Clock;
	/** Seeds companies, watch list entries, unread alerts and one finished document. */
	seed?: boolean;
	/** Directory with server.pem and server-key.pem (default: tools/simulator/tls of the project). */
	tlsDir?: string;
}
