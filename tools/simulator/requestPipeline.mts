// The path every simulated request takes: log it, apply the rate limit, add latency, apply an
// injected fault (before or after the real handling), run the race hooks, then answer.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from './clock.mts';
import type { FaultQueue } from './faults.mts';
import { replacesAnswer } from './faults.mts';
import {
	dropConnection,
	jsonAnswer,
	readRequest,
	writeAnswer,
	writeTruncated,
	type Answer,
} from './httpIo.mts';
import type { RequestHooks } from './requestHooks.mts';
import type { RequestLog } from './requestLog.mts';
import type { Traffic } from './traffic.mts';
import type { Fault, LoggedRequest, Origin } from './types.mts';

export interface PipelineContext {
	origin: Origin;
	log: RequestLog;
	faults: FaultQueue;
	hooks: RequestHooks;
	latencyMs: () => number;
	traffic: () => Traffic;
	/** The simulator's clock: the time each request is logged at (its waits go through Traffic.hold). */
	clock: Clock;
	/** Whether the rate limit applies (the API origin, not the file host). */
	rateLimited: boolean;
	handle: (request: LoggedRequest) => Answer | Promise<Answer>;
}

function faultHeaders(fault: Fault): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(fault.headers ?? {}))
		headers[name.toLowerCase()] = value;
	if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
	if (fault.contentType !== undefined) headers['content-type'] = fault.contentType;
	return headers;
}

function faultAnswer(fault: Fault): Answer {
	const status = fault.status ?? 200;
	const base =
		fault.body !== undefined
			? { status, headers: { 'content-type': 'application/json' }, body: fault.body }
			: jsonAnswer(status, { detail: STATUS_CODES[status] ?? 'Simulated fault' });
	return { ...base, headers: { ...base.headers, ...faultHeaders(fault) } };
}

function withFaultHeaders(answer: Answer, fault: Fault): Answer {
	return { ...answer, headers: { ...answer.headers, ...faultHeaders(fault) } };
}

export async function runPipeline(
	req: IncomingMessage,
	res: ServerResponse,
	context: PipelineContext,
): Promise<void> {
	let request: LoggedRequest;
	try {
		request = await readRequest(req, context.origin, () => context.clock.now());
	} catch {
		await writeAnswer(res, jsonAnswer(413, { detail: 'Request body too large.' }), 'POST');
		return;
	}
	context.log.add(request);
	const traffic = context.traffic();
	traffic.begin();
	res.once('close', () => traffic.end());

	const admission = context.rateLimited ? traffic.admit() : undefined;
	if (admission?.refusal) return writeAnswer(res, admission.refusal, request.method);
	if (admission?.delayMs) await traffic.hold(admission.delayMs);
	await serve(res, request, context, traffic, (status) => admission?.answered(status));
}

/** Everything after the rate limit; `answered` learns the status sent (0 for a cut connection). */
async function serve(
	res: ServerResponse,
	request: LoggedRequest,
	context: PipelineContext,
	traffic: Traffic,
	answered: (status: number) => void,
): Promise<void> {
	const send = (answer: Answer) => {
		answered(answer.status);
		return writeAnswer(res, answer, request.method);
	};
	const latency = context.latencyMs();
	if (latency > 0) await traffic.hold(latency);

	const fault = context.faults.take(request);
	if (fault && !fault.afterHandling) {
		if (fault.delayMs) await sleep(fault.delayMs);
		if (fault.drop) {
			answered(0);
			return dropConnection(res);
		}
		if (replacesAnswer(fault)) return send(faultAnswer(fault));
	}

	let answer = await context.handle(request);
	await context.hooks.run(request);

	if (fault) {
		if (fault.afterHandling && fault.delayMs) await sleep(fault.delayMs);
		if (fault.afterHandling && fault.drop) {
			answered(0);
			return writeTruncatedOrDrop(res, answer, request);
		}
		answer =
			fault.afterHandling && replacesAnswer(fault)
				? faultAnswer(fault)
				: withFaultHeaders(answer, fault);
	}
	await send(answer);
}

/** A lost API answer is a connection cut before any byte; a lost download is a truncated body. */
function writeTruncatedOrDrop(
	res: ServerResponse,
	answer: Answer,
	request: LoggedRequest,
): Promise<void> | void {
	if (request.origin === 'download' && answer.status < 300) return writeTruncated(res, answer);
	return dropConnection(res);
}
