import {
	startSimulatorProcess,
	type SimulatorProcess,
} from '../../tools/simulator/simulatorProcess.mts';
import { inParallel } from './stats.mts';

/** Settings of the simulator's control API (see tools/simulator/controlRoutes.mts). */
export interface SimulatorSettings {
	latencyMs?: number;
	documentSizeBytes?: number;
	downloadBytesPerSecond?: number;
	/** How long after its order a document is ready. */
	documentProcessingMs?: number;
	balance?: number;
}

/**
 * The seeded simulator in a process of its own, so that its CPU time and memory are not counted
 * against the client measured, with the few controls the benchmarks need.
 */
export class BenchSimulator {
	readonly process: SimulatorProcess;
	private settings: SimulatorSettings = {};

	private constructor(process: SimulatorProcess) {
		this.process = process;
	}

	static async start(settings: SimulatorSettings = {}): Promise<BenchSimulator> {
		const simulator = new BenchSimulator(await startSimulatorProcess());
		await simulator.configure(settings);
		return simulator;
	}

	get baseUrl(): string {
		return this.process.baseUrl;
	}

	get credentials(): { username: string; password: string } {
		return this.process.credentials;
	}

	/** The credential data of the LibreBOR credential type, for this simulator. */
	get libreBorCredential() {
		return { environment: 'custom', baseUrl: this.baseUrl, ...this.credentials };
	}

	async configure(settings: SimulatorSettings): Promise<void> {
		this.settings = { ...this.settings, ...settings };
		await this.process.control('POST', 'settings', settings);
	}

	/** Back to the seeded account, keeping the settings chosen so far. */
	async reset(): Promise<void> {
		await this.process.control('POST', 'reset');
		await this.process.control('POST', 'settings', this.settings);
	}

	async addAlerts(count: number): Promise<string[]> {
		const ids: string[] = [];
		await inParallel(count, 16, async (index) => {
			const alert = (await this.process.control('POST', 'alerts', {})) as { id: string };
			ids[index] = alert.id;
		});
		return ids;
	}

	/** Lists these companies in the registry the look-ups read (reset() forgets them). */
	async listInRegistry(nifs: string[]): Promise<void> {
		await this.process.control('POST', 'registry', { nifs });
	}

	/** Makes the account follow these companies and no others, without sending API requests. */
	async followOnly(nifs: string[]): Promise<void> {
		await this.process.control('DELETE', 'watchlist');
		await this.process.control('POST', 'watchlist', { nifs });
	}

	/** Unread alerts in the simulated account. */
	async unreadCount(): Promise<number> {
		const state = (await this.process.control('GET', 'state')) as { unreadAlerts: number };
		return state.unreadAlerts;
	}

	/** API and download requests received since the last reset. */
	async requestCount(): Promise<number> {
		const state = (await this.process.control('GET', 'state')) as { requests: number };
		return state.requests;
	}

	/** The least time the limit needs to admit `requests`, from the first API request since the last reset. */
	async floorMs(requests: number): Promise<number> {
		const logged = (await this.process.control('GET', 'requests')) as Array<{
			origin: string;
			time: number;
		}>;
		const first = logged.find((request) => request.origin === 'api')?.time ?? 0;
		const answer = (await this.process.control(
			'GET',
			`traffic/floor?requests=${requests}&startMs=${first}`,
		)) as { floorMs: number };
		return answer.floorMs;
	}

	async close(): Promise<void> {
		await this.process.close();
	}
}
