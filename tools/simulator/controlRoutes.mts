// The unauthenticated /__sim/ control API, for demos and for tests that drive a simulator running
// in another process:
//   POST /__sim/alerts    body: an AlertSpec (e.g. {"nif":"B64717838","label":"Revocaciones"}) -> the alert
//   GET  /__sim/state     -> counts (unread alerts, watch list size, orders, balance, ...)
//   POST /__sim/reset     -> back to the initial state
//   POST /__sim/faults    body: a Fault; `pathPattern` (RegExp source) instead of `path`, `times` may be "Infinity"
//   DELETE /__sim/faults  -> removes every pending fault
//   POST /__sim/settings  body: any of latencyMs, alertListCap, documentProcessingMs (ms, or {"minMs","maxMs","seed"}
//                         drawn per document), documentWorkers, documentSizeBytes, downloadBytesPerSecond, balance,
//                         orderPrice, finishedStatus, disablePrimaryDocumentPaths (null: unlimited);
//                         rateLimit ({"shape","requests","windowMs","burst","nodelay"}, see rateLimits/; null: none),
//                         rateLimitPerSecond (a token bucket of that many a second; null: none). 400 when invalid.
//   GET  /__sim/traffic   -> requests in flight, the most at once, admitted, refused (by status), delayed; the limit
//   DELETE /__sim/traffic -> clears those counters
//   GET  /__sim/traffic/floor?requests=N&startMs=T -> {"floorMs"}: the least time the limit needs to admit N
//                         requests from a cold start at T (default 0, a window's start)
//   GET  /__sim/requests  -> the request log
//   POST /__sim/registry  body {"nifs": [...]}: lists these companies (as the directory names them) in the registry
//   POST /__sim/watchlist body {"nifs": [...]}: follows these companies, without API traffic
//   DELETE /__sim/watchlist -> follows nothing any more (the seeded account follows three companies)
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonAnswer, readRequest, writeAnswer, type Answer } from './httpIo.mts';
import { isValidNif } from './nif.mts';
import type { Simulator } from './simulator.mts';
import type { AlertSpec, Fault, LoggedRequest } from './types.mts';

const SETTING_NAMES = [
	'latencyMs',
	'alertListCap',
	'documentProcessingMs',
	'documentWorkers',
	'documentSizeBytes',
	'downloadBytesPerSecond',
	'balance',
	'orderPrice',
	'finishedStatus',
	'disablePrimaryDocumentPaths',
	'rateLimitPerSecond',
	'rateLimit',
] as const;
const TRAFFIC_SETTINGS: ReadonlySet<string> = new Set(['rateLimitPerSecond', 'rateLimit']);

function parseJson(body: string): Record<string, unknown> | undefined {
	if (body.trim() === '') return {};
	try {
		const value: unknown = JSON.parse(body);
		return value && typeof value === 'object' && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

/** A Fault from JSON: `pathPattern` (a RegExp source) stands for a RegExp path; `times` may be "Infinity". */
function faultFromJson(json: Record<string, unknown>): Fault {
	const { pathPattern, times, ...rest } = json;
	const fault = rest as Fault;
	if (typeof pathPattern === 'string') fault.path = new RegExp(pathPattern);
	if (times !== undefined)
		fault.times = times === 'Infinity' || times === null ? Infinity : Number(times);
	return fault;
}

/** Applies the settings in `json`; the answer refusing them when one is invalid. */
function applySettings(simulator: Simulator, json: Record<string, unknown>): Answer | undefined {
	for (const name of SETTING_NAMES) {
		if (!(name in json)) continue;
		const target = (TRAFFIC_SETTINGS.has(name) ? simulator.traffic : simulator.state) as object;
		const none = name === 'rateLimit' ? undefined : Infinity;
		try {
			Reflect.set(target, name, json[name] === null ? none : json[name]);
		} catch (error) {
			return jsonAnswer(400, { detail: `${name}: ${(error as Error).message}` });
		}
	}
	return undefined;
}

/** The answer of a seeding route given `{"nifs": [...]}`: 400 unless every one is a valid NIF. */
function withNifs(json: Record<string, unknown>, seed: (nifs: string[]) => unknown): Answer {
	const nifs = json.nifs;
	if (!Array.isArray(nifs) || !nifs.every((nif) => typeof nif === 'string' && isValidNif(nif)))
		return jsonAnswer(400, { detail: 'nifs must be a list of valid NIFs' });
	seed(nifs as string[]);
	return jsonAnswer(201, { added: nifs.length });
}

function handle(
	simulator: Simulator,
	request: LoggedRequest,
	json: Record<string, unknown>,
): Answer {
	const route = `${request.method} ${request.path.replace(/\/$/, '')}`;
	switch (route) {
		case 'POST /__sim/alerts':
			return jsonAnswer(201, simulator.state.addAlert(json as AlertSpec));
		case 'GET /__sim/state':
			return jsonAnswer(200, simulator.summary());
		case 'POST /__sim/reset':
			simulator.reset();
			return jsonAnswer(200, simulator.summary());
		case 'POST /__sim/faults': {
			const injected = simulator.injectFault(faultFromJson(json));
			return jsonAnswer(201, { queued: injected.remaining > 0 });
		}
		case 'DELETE /__sim/faults':
			simulator.clearFaults();
			return jsonAnswer(200, { cleared: true });
		case 'POST /__sim/settings':
			return applySettings(simulator, json) ?? jsonAnswer(200, simulator.summary());
		case 'GET /__sim/traffic':
			return jsonAnswer(200, simulator.traffic.summary());
		case 'GET /__sim/traffic/floor': {
			const requests = Number(request.query.requests);
			const startMs = Number(request.query.startMs ?? 0);
			if (!(requests >= 0 && Number.isFinite(startMs)))
				return jsonAnswer(400, { detail: 'requests (and startMs) must be numbers' });
			return jsonAnswer(200, { floorMs: simulator.traffic.floorMs(requests, startMs) });
		}
		case 'DELETE /__sim/traffic':
			simulator.traffic.resetCounters();
			return jsonAnswer(200, simulator.traffic.summary());
		case 'POST /__sim/registry':
			return withNifs(json, (nifs) => simulator.state.registry.addFromDirectory(nifs));
		case 'POST /__sim/watchlist':
			return withNifs(json, (nifs) => nifs.forEach((nif) => simulator.state.follow(nif)));
		case 'DELETE /__sim/watchlist':
			for (const entity of simulator.state.watchlist) simulator.state.unfollow(entity.nif);
			return jsonAnswer(200, simulator.summary());
		case 'GET /__sim/requests':
			return jsonAnswer(200, simulator.requests);
		default:
			return jsonAnswer(404, { detail: 'Unknown control route.' });
	}
}

export async function handleControlRequest(
	simulator: Simulator,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const request = await readRequest(req, 'api');
	const json = parseJson(request.body);
	if (!json) {
		await writeAnswer(
			res,
			jsonAnswer(400, { detail: 'The body must be a JSON object.' }),
			request.method,
		);
		return;
	}
	await writeAnswer(res, handle(simulator, request, json), request.method);
}
