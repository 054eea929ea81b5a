// Everything the simulated account holds (watch list, alerts, documents, balance) and the
// settings that shape its answers. No HTTP here: the routes translate requests into these calls.
import { randomBytes, randomUUID } from 'node:crypto';
import { buildAlert } from './alertFactory.mts';
import { AlertStore } from './alertStore.mts';
import { systemClock, type Clock } from './clock.mts';
import { CompanyDirectory } from './companies.mts';
import { Registry } from './registry.mts';
import { preparationDrawer, readyTimes, type PreparationTime } from './documentPreparation.mts';
import type {
	Alert,
	AlertSpec,
	DocumentRecord,
	DocumentView,
	SimulatorOptions,
	WatchedEntity,
} from './types.mts';

export const DEFAULT_DOCUMENT_SIZE = 20 * 1024;

/** `YYYY-MM-DD HH:MM:SS+00:00`, the watch list's timestamp format. */
export function watchlistTimestamp(date: Date): string {
	return `${date.toISOString().slice(0, 19).replace('T', ' ')}+00:00`;
}

export interface OrderInput {
	nif: string;
	year: number;
	type: string;
	sendEmail: boolean;
}

export type OrderOutcome =
	| { ok: true; document: DocumentRecord }
	| { ok: false; reason: 'insufficient-balance' };

export class SimulatorState {
	alertListCap: number;
	documentSizeBytes: number;
	downloadBytesPerSecond: number;
	downloadChunked: boolean;
	orderPrice: number;
	balance: number;
	finishedStatus: string;
	downloadLinkOverride: ((document: DocumentView) => string | null) | undefined;
	disablePrimaryDocumentPaths: boolean;
	routeNotFoundStyle: 'html' | 'json';
	latencyMs: number;
	ordersReceived = 0;
	/** Bytes of files the download host has handed to its connections. */
	downloadBytesSent = 0;
	/** Files the download host is still sending: their connection open, their client not gone. */
	downloadsOpen = 0;

	readonly companies = new CompanyDirectory();
	/** The commercial registry the look-ups read (companies and people), with its paging settings. */
	readonly registry = new Registry(this.companies);
	readonly alerts = new AlertStore();
	private readonly watched = new Map<string, WatchedEntity>();
	private readonly documentsById = new Map<string, DocumentRecord>();
	private readonly documentsByToken = new Map<string, DocumentRecord>();
	private nextEntityIndex = 0;
	private readonly downloadOrigin: () => string;
	private preparation: PreparationTime = 0;
	private drawPreparation = preparationDrawer(0);
	private workers = Infinity;

	/** The time the account lives in: orders, readiness, timestamps. */
	readonly clock: Clock;

	constructor(options: SimulatorOptions, downloadOrigin: () => string, clock = systemClock) {
		this.downloadOrigin = downloadOrigin;
		this.clock = clock;
		this.alertListCap = options.alertListCap ?? Infinity;
		this.documentProcessingMs = options.documentProcessingMs ?? 0;
		this.documentWorkers = options.documentWorkers ?? Infinity;
		this.documentSizeBytes = options.documentSizeBytes ?? DEFAULT_DOCUMENT_SIZE;
		this.downloadBytesPerSecond = options.downloadBytesPerSecond ?? 0;
		this.downloadChunked = options.downloadChunked ?? false;
		this.orderPrice = options.orderPrice ?? 5;
		this.balance = options.balance ?? 100;
		this.finishedStatus = options.finishedStatus ?? 'completed';
		this.downloadLinkOverride = options.downloadLinkOverride;
		this.disablePrimaryDocumentPaths = options.disablePrimaryDocumentPaths ?? false;
		this.routeNotFoundStyle = options.routeNotFoundStyle ?? 'html';
		this.latencyMs = options.latencyMs ?? 0;
	}

	// Watch list

	get watchlist(): WatchedEntity[] {
		return [...this.watched.values()];
	}

	isFollowed(nif: string): boolean {
		return this.watched.has(nif);
	}

	/** Adds the company; following it again changes nothing. */
	follow(nif: string, now = new Date(this.clock.now())): WatchedEntity {
		const existing = this.watched.get(nif);
		if (existing) return existing;
		const company = this.companies.get(nif);
		const entity: WatchedEntity = {
			type: 'company',
			name: company.name,
			slug: company.slug,
			nif,
			added_at: watchlistTimestamp(now),
		};
		this.watched.set(nif, entity);
		return entity;
	}

	/** False when the company was not followed. */
	unfollow(nif: string): boolean {
		return this.watched.delete(nif);
	}

	// Alerts

	/** Adds an unread alert; without a NIF or entity it is about a watched company (or a known one). */
	addAlert(spec: AlertSpec = {}): Alert {
		const company = this.companies.get(spec.nif ?? this.nextAlertNif());
		const alert = buildAlert(spec, company, new Date(this.clock.now()));
		this.alerts.add(alert);
		return alert;
	}

	addAlerts(count: number, spec?: AlertSpec): Alert[] {
		return Array.from({ length: count }, () => this.addAlert(spec));
	}

	/** Unread alerts, newest first. */
	unreadAlerts(limit = Infinity): Alert[] {
		return this.alerts.unreadNewestFirst(limit);
	}

	private nextAlertNif(): string {
		const pool =
			this.watched.size > 0 ? [...this.watched.keys()] : this.companies.all().map((c) => c.nif);
		return pool[this.nextEntityIndex++ % pool.length];
	}

	// Documents

	/** Documents prepared at once (default unlimited); changing it re-plans every document. */
	get documentWorkers(): number {
		return this.workers;
	}
	set documentWorkers(workers: number) {
		if (!(workers >= 1)) throw new Error('There must be at least one worker');
		this.workers = workers;
	}

	/** How long preparing a document takes (see PreparationTime); a new range starts its seed again. */
	get documentProcessingMs(): PreparationTime {
		return this.preparation;
	}
	set documentProcessingMs(time: PreparationTime) {
		this.drawPreparation = preparationDrawer(time);
		this.preparation = time;
	}

	order(input: OrderInput, now = this.clock.now()): OrderOutcome {
		if (this.balance <= 0) return { ok: false, reason: 'insufficient-balance' };
		this.balance -= this.orderPrice;
		const document: DocumentRecord = {
			id: randomUUID(),
			nif: input.nif,
			year: input.year,
			type: input.type,
			send_email: input.sendEmail,
			created_at: new Date(now).toISOString(),
			orderedAtMs: now,
			downloadToken: randomBytes(16).toString('hex'),
		};
		document.preparationMs = this.drawPreparation(document);
		this.documentsById.set(document.id, document);
		this.documentsByToken.set(document.downloadToken, document);
		return { ok: true, document };
	}

	get documentCount(): number {
		return this.documentsById.size;
	}

	get documents(): DocumentRecord[] {
		return [...this.documentsById.values()];
	}

	getDocument(id: string): DocumentRecord | undefined {
		return this.documentsById.get(id);
	}

	documentByToken(token: string): DocumentRecord | undefined {
		return this.documentsByToken.get(token);
	}

	/** Finishes a document now, whatever its preparation time, freeing its worker. */
	finishDocument(id: string): boolean {
		const document = this.documentsById.get(id);
		if (document) document.forcedAtMs ??= this.clock.now();
		return document !== undefined;
	}

	/** When the document is (or will be) prepared, on the simulator's clock. */
	readyAt(document: DocumentRecord): number {
		// A document ordered under a fixed time takes the fixed time set now (0 under a range or function).
		const fixedMs = typeof this.preparation === 'number' ? this.preparation : 0;
		if (this.workers === Infinity) {
			const done = document.orderedAtMs + (document.preparationMs ?? fixedMs);
			return Math.min(done, document.forcedAtMs ?? Infinity);
		}
		return readyTimes(this.documents, this.workers, fixedMs).get(document.id)!;
	}

	isFinished(document: DocumentRecord, now = this.clock.now()): boolean {
		return now >= this.readyAt(document);
	}

	/** The document as GET /documents/<id>/ would show it now. */
	viewDocumentById(id: string): DocumentView | undefined {
		const document = this.documentsById.get(id);
		return document && this.viewDocument(document);
	}

	/** The `document` object of GET /documents/<id>/ at this moment. */
	viewDocument(document: DocumentRecord, now = this.clock.now()): DocumentView {
		const view: DocumentView = {
			id: document.id,
			status: 'processing',
			download_link: null,
			nif: document.nif,
			year: document.year,
			type: document.type,
			created_at: document.created_at,
		};
		if (!this.isFinished(document, now)) return view;
		view.status = this.finishedStatus;
		const link = `${this.downloadOrigin()}/files/${document.downloadToken}`;
		view.download_link = this.downloadLinkOverride
			? this.downloadLinkOverride({ ...view, download_link: link })
			: link;
		return view;
	}
}
