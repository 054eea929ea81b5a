// The simulator: two HTTPS servers (the API and the file host, on separate origins) around one
// simulated account, with the controls tests need (request log, faults, hooks, settings).
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApiHandler, type Credentials } from './apiRoutes.mts';
import { systemClock, type Clock } from './clock.mts';
import { handleControlRequest } from './controlRoutes.mts';
import { createDownloadHandler } from './downloadHost.mts';
import { FaultQueue } from './faults.mts';
import type { Answer } from './httpIo.mts';
import { Traffic } from './traffic.mts';
import { RequestHooks, type RequestHook } from './requestHooks.mts';
import { RequestLog } from './requestLog.mts';
import { runPipeline, type PipelineContext } from './requestPipeline.mts';
import { seedState } from './seed.mts';
import { SimulatorState } from './state.mts';
import { loadTls, type TlsMaterial } from './tls.mts';
import type {
	Fault,
	FaultHandle,
	LoggedRequest,
	Origin,
	RequestMatcher,
	SimulatorOptions,
} from './types.mts';

export const DEFAULT_USERNAME = 'api-user';
export const DEFAULT_PASSWORD = 's3cret-Pa55word!';
const URL_HOST = 'localhost';
const KEEP_ALIVE_MS = 65_000;

export class Simulator {
	readonly credentials: Credentials;
	/** The time every part of the simulator reads (the `clock` option, or real time). */
	readonly clock: Clock;
	baseUrl = '';
	downloadOrigin = '';

	private readonly options: SimulatorOptions;
	private readonly log = new RequestLog();
	private readonly faults = new FaultQueue();
	private readonly hooks = new RequestHooks();
	/** Requests in flight (and the most at once) on both origins, and the API's rate limit. */
	traffic: Traffic;
	private readonly apiServer: Server;
	private readonly downloadServer: Server;
	private current: SimulatorState;
	private handleApi: (request: LoggedRequest) => Answer;
	private handleDownload: (request: LoggedRequest) => Answer;

	constructor(options: SimulatorOptions = {}, tls: TlsMaterial = loadTls(options.tlsDir)) {
		this.options = options;
		this.clock = options.clock ?? systemClock;
		this.credentials = {
			username: options.username ?? DEFAULT_USERNAME,
			password: options.password ?? DEFAULT_PASSWORD,
		};
		this.current = this.freshState();
		this.handleApi = createApiHandler(this.current, this.credentials);
		this.handleDownload = createDownloadHandler(this.current);
		this.traffic = this.freshTraffic();

		const apiContext = this.pipelineContext('api', (request) => this.handleApi(request));
		const downloadContext = this.pipelineContext('download', (request) =>
			this.handleDownload(request),
		);
		this.apiServer = this.createHttpsServer(tls, (req, res) =>
			req.url?.startsWith('/__sim/')
				? handleControlRequest(this, req, res)
				: runPipeline(req, res, apiContext),
		);
		this.downloadServer = this.createHttpsServer(tls, (req, res) =>
			runPipeline(req, res, downloadContext),
		);
	}

	async listen(): Promise<void> {
		const host = this.options.host ?? '127.0.0.1';
		const apiPort = await listenOn(this.apiServer, host, this.options.port ?? 0);
		const downloadPort = await listenOn(this.downloadServer, host, this.options.downloadPort ?? 0);
		this.baseUrl = `https://${URL_HOST}:${apiPort}/v2`;
		this.downloadOrigin = `https://${URL_HOST}:${downloadPort}`;
	}

	async close(): Promise<void> {
		await Promise.all([closeServer(this.apiServer), closeServer(this.downloadServer)]);
	}

	/** Back to the state it started with: account, settings, log, faults and hooks. */
	reset(): void {
		this.current = this.freshState();
		this.handleApi = createApiHandler(this.current, this.credentials);
		this.handleDownload = createDownloadHandler(this.current);
		this.log.clear();
		this.faults.clear();
		this.hooks.clear();
		this.traffic = this.freshTraffic();
	}

	/** The simulated account and its settings (each also an option of startSimulator); replaced by reset(). */
	get state(): SimulatorState {
		return this.current;
	}

	// Request log

	get requests(): LoggedRequest[] {
		return this.log.entries;
	}

	/** Logged requests with this method whose path starts with the string (or matches the RegExp). */
	requestsTo(method: string, pathPrefixOrRegex: string | RegExp, origin?: Origin): LoggedRequest[] {
		return this.log.to(method, pathPrefixOrRegex, origin);
	}

	clearLog(): void {
		this.log.clear();
	}

	// Faults and hooks

	injectFault(fault: Fault): FaultHandle {
		return this.faults.inject(fault);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	/** Runs the callback after a matching request is handled, before its answer goes out; returns a disposer. */
	onRequest(matcher: RequestMatcher, callback: RequestHook, times = 1): () => void {
		return this.hooks.add(matcher, callback, times);
	}

	summary(): Record<string, unknown> {
		return {
			baseUrl: this.baseUrl,
			downloadOrigin: this.downloadOrigin,
			unreadAlerts: this.state.alerts.unreadCount,
			totalAlerts: this.state.alerts.totalCount,
			watchlistSize: this.state.watchlist.length,
			ordersReceived: this.state.ordersReceived,
			documents: this.state.documentCount,
			balance: this.state.balance,
			requests: this.log.entries.length,
			traffic: this.traffic.summary(),
		};
	}

	private freshState(): SimulatorState {
		const state = new SimulatorState(this.options, () => this.downloadOrigin, this.clock);
		if (this.options.seed) seedState(state, this.clock.now());
		return state;
	}

	private freshTraffic(): Traffic {
		const { rateLimit, rateLimitPerSecond } = this.options;
		const traffic = new Traffic(this.clock, rateLimit);
		if (!rateLimit && rateLimitPerSecond) traffic.rateLimitPerSecond = rateLimitPerSecond;
		return traffic;
	}

	private pipelineContext(origin: Origin, handle: PipelineContext['handle']): PipelineContext {
		return {
			origin,
			log: this.log,
			faults: this.faults,
			hooks: this.hooks,
			latencyMs: () => (origin === 'api' ? this.state.latencyMs : 0),
			traffic: () => this.traffic,
			clock: this.clock,
			rateLimited: origin === 'api',
			handle,
		};
	}

	private createHttpsServer(
		tls: TlsMaterial,
		listener: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
	): Server {
		const server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
			listener(req, res).catch((error: unknown) => {
				if (!res.headersSent) {
					// Most likely a throwing test hook: make it visible instead of a bare 500.
					console.error('LibreBOR simulator: request failed:', error);
					res.writeHead(500, { 'content-type': 'application/json' });
					res.end('{"detail":"Simulator error."}');
				} else {
					res.destroy();
				}
			});
		});
		server.keepAliveTimeout = KEEP_ALIVE_MS;
		server.headersTimeout = KEEP_ALIVE_MS + 1000;
		server.on('clientError', (_error, socket) => socket.destroy());
		server.on('tlsClientError', () => undefined);
		return server;
	}
}

function listenOn(server: Server, host: string, port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}

function closeServer(server: Server): Promise<void> {
	if (!server.listening) return Promise.resolve();
	return new Promise((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const simulator = new Simulator(options);
	try {
		await simulator.listen();
	} catch (error) {
		await simulator.close();
		throw error;
	}
	return simulator;
}
