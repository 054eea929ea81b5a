// The /v2 API: routing the way the real (Django REST framework) service does it, Basic auth,
// parameter validation and the answers of each endpoint.
import { htmlAnswer, jsonAnswer, rawJsonAnswer, type Answer } from './httpIo.mts';
import { isValidNif } from './nif.mts';
import { registryRoutes } from './registryRoutes.mts';
import type { SimulatorState } from './state.mts';
import type { LoggedRequest } from './types.mts';

export interface Credentials {
	username: string;
	password: string;
}

type Params = Record<string, string>;
type Handler = (params: Params, match: RegExpExecArray, request: LoggedRequest) => Answer;

interface Route {
	method: string;
	pattern: RegExp;
	handler: Handler;
}

const NOT_FOUND_HTML = `<!doctype html>
<html lang="en">
<head>
  <title>Not Found</title>
</head>
<body>
  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>
</body>
</html>
`;

const INSUFFICIENT_BALANCE = 'Insufficient balance. Top up in the user panel, Documents section.';
const FIRST_ACCOUNTS_YEAR = 1990;

function error(status: number, message: string): Answer {
	return jsonAnswer(status, { result: 'error', message });
}

const success = (): Answer => jsonAnswer(200, { result: 'success' });

function isAuthorized(header: string | undefined, credentials: Credentials): boolean {
	const encoded = /^Basic\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
	if (!encoded) return false;
	const decoded = Buffer.from(encoded, 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	return (
		colon >= 0 &&
		decoded.slice(0, colon) === credentials.username &&
		decoded.slice(colon + 1) === credentials.password
	);
}

/** The NIF parameter, or the answer refusing it. */
function requireNif(params: Params): string | Answer {
	const nif = params.nif;
	if (nif === undefined || nif === '') return error(400, 'The nif parameter is required.');
	if (!isValidNif(nif)) return error(400, `Invalid NIF: ${nif}`);
	return nif;
}

function requireType(params: Params, expected: string): Answer | undefined {
	if (params.type === undefined || params.type === '')
		return error(400, 'The type parameter is required.');
	if (params.type !== expected) return error(400, `Unsupported type: ${params.type}`);
	return undefined;
}

function parseYear(raw: string | undefined): number | Answer {
	if (raw === undefined || raw === '') return error(400, 'The year parameter is required.');
	const year = Number(raw);
	if (!/^\d{4}$/.test(raw) || year < FIRST_ACCOUNTS_YEAR || year > new Date().getUTCFullYear()) {
		return error(400, `Invalid year: ${raw}`);
	}
	return year;
}

function parseSendEmail(raw: string | undefined): boolean | Answer {
	if (raw === undefined || raw === '') return false;
	const value = raw.toLowerCase();
	if (value === 'true' || value === '1') return true;
	if (value === 'false' || value === '0') return false;
	return error(400, `Invalid send_email: ${raw}`);
}

const isAnswer = (value: unknown): value is Answer =>
	typeof value === 'object' && value !== null && 'status' in value;

function buildRoutes(state: SimulatorState): Route[] {
	const follow: Handler = (params) => {
		const nif = requireNif(params);
		if (isAnswer(nif)) return nif;
		const typeError = requireType(params, 'company');
		if (typeError) return typeError;
		state.follow(nif);
		return success();
	};

	const unfollow: Handler = (params) => {
		const nif = requireNif(params);
		if (isAnswer(nif)) return nif;
		const typeError = requireType(params, 'company');
		if (typeError) return typeError;
		return state.unfollow(nif) ? success() : error(404, 'Entity not followed');
	};

	const order: Handler = (params) => {
		state.ordersReceived++;
		const nif = requireNif(params);
		if (isAnswer(nif)) return nif;
		const typeError = requireType(params, 'accounts');
		if (typeError) return typeError;
		const year = parseYear(params.year);
		if (isAnswer(year)) return year;
		const sendEmail = parseSendEmail(params.send_email);
		if (isAnswer(sendEmail)) return sendEmail;
		const outcome = state.order({ nif, year, type: 'accounts', sendEmail });
		if (!outcome.ok) return error(402, INSUFFICIENT_BALANCE);
		return jsonAnswer(200, { document_id: outcome.document.id, result: 'success' });
	};

	const getDocument: Handler = (_params, match) => {
		const document = state.getDocument(decodeURIComponent(match[1]));
		if (!document) return error(404, 'Document not found');
		return jsonAnswer(200, { document: state.viewDocument(document) });
	};

	return [
		{ method: 'POST', pattern: /^\/v2\/alerts\/follow\/$/, handler: follow },
		{ method: 'POST', pattern: /^\/v2\/alerts\/unfollow\/$/, handler: unfollow },
		{
			method: 'GET',
			pattern: /^\/v2\/alerts\/$/,
			handler: () => rawJsonAnswer(200, state.alerts.unreadJson(state.alertListCap)),
		},
		{
			method: 'GET',
			pattern: /^\/v2\/alerts\/mark_as_read\/all\/$/,
			handler: () => {
				state.alerts.markAllRead();
				return success();
			},
		},
		{
			method: 'GET',
			pattern: /^\/v2\/alerts\/mark_as_read\/([^/]+)\/$/,
			handler: (_params, match) =>
				state.alerts.markRead(decodeURIComponent(match[1]))
					? success()
					: error(404, 'Alert not found'),
		},
		{
			method: 'GET',
			pattern: /^\/v2\/alerts\/following\/$/,
			handler: () => jsonAnswer(200, { entities: state.watchlist }),
		},
		{ method: 'POST', pattern: /^\/v2\/documents\/order\/$/, handler: order },
		{ method: 'GET', pattern: /^\/v2\/documents\/([^/]+)\/$/, handler: getDocument },
		{ method: 'POST', pattern: /^\/v2\/order\/$/, handler: order },
		{ method: 'GET', pattern: /^\/v2\/order\/([^/]+)\/$/, handler: getDocument },
		...registryRoutes(state.registry),
	];
}

export function createApiHandler(
	state: SimulatorState,
	credentials: Credentials,
): (request: LoggedRequest) => Answer {
	const routes = buildRoutes(state);

	const routeNotFound = (): Answer =>
		state.routeNotFoundStyle === 'json'
			? jsonAnswer(404, { detail: 'Not found.' })
			: htmlAnswer(404, NOT_FOUND_HTML);

	return (request) => {
		if (state.disablePrimaryDocumentPaths && request.path.startsWith('/v2/documents/'))
			return routeNotFound();
		// Like Django's URL resolver: the first pattern that matches the path decides; the method comes after.
		let matched: { route: Route; match: RegExpExecArray } | undefined;
		for (const route of routes) {
			const match = route.pattern.exec(request.path);
			if (match) {
				matched = { route, match };
				break;
			}
		}
		if (!matched) return routeNotFound();
		if (!isAuthorized(request.headers.authorization, credentials)) {
			return jsonAnswer(
				401,
				{ detail: 'Invalid username/password.' },
				{ 'www-authenticate': 'Basic realm="LibreBOR"' },
			);
		}
		const { route, match } = matched;
		if (route.method !== request.method) {
			return jsonAnswer(
				405,
				{ detail: `Method "${request.method}" not allowed.` },
				{ allow: `${route.method}, OPTIONS` },
			);
		}
		return route.handler({ ...request.query, ...request.form }, match, request);
	};
}
