import { it } from 'vitest';

import type { AlertPollSession } from '../../../tools/engine/index.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { median, timeMs } from '../stats.mts';
import { PlainLibreBorClient } from '../undiciClient.mts';
import { activeTrigger, quickRun, reportResult } from './builtPackage.mts';

const UNREAD_COUNTS = quickRun ? [100, 1000] : [100, 1000, 10_000];
const IDLE_POLLS = quickRun ? 3 : 15;
const NEW_ALERTS = 10;

export interface TriggerResult {
	unread: number;
	/** Bytes of the GET /alerts/ answer the poll downloads. */
	listingBytes: number;
	/** The floor of a poll: a plain undici client opening a connection, getting the listing and parsing it. */
	plainListingMs: number;
	activationPollMs: number;
	idlePollMs: number;
	requestsPerIdlePoll: number;
	newAlertsPollMs: number;
	requestsPerNewAlertsPoll: number;
	emittedOnNewAlertsPoll: number;
	staticDataBytes: number;
}

it('cost of a LibreBOR Trigger poll as unread alerts pile up', async () => {
	const sim = await BenchSimulator.start();
	// A new connection per request, as n8n's HTTP helper makes them.
	const client = new PlainLibreBorClient({
		baseUrl: sim.baseUrl,
		credentials: sim.credentials,
		reuseConnections: false,
	});
	const results: TriggerResult[] = [];

	/** One production poll: its time, the requests it sent and what it emitted. */
	const poll = async (session: AlertPollSession) => {
		const before = await sim.requestCount();
		let emitted = 0;
		const ms = await timeMs(async () => {
			emitted = (await session.poll())?.[0]?.length ?? 0;
		});
		return { ms, requests: (await sim.requestCount()) - before, emitted };
	};

	try {
		// Warm-up: the trigger's code paths compiled and the engine set up before anything is timed.
		await sim.addAlerts(100);
		const warmUp = activeTrigger(sim, {});
		for (let round = 0; round < 5; round++) await warmUp.poll();

		for (const unread of UNREAD_COUNTS) {
			await sim.reset();
			await sim.addAlerts(unread);
			const listingBytes = JSON.stringify(await client.send('GET', '/alerts/')).length;
			const plainListing = [];
			for (let round = 0; round < 5; round++)
				plainListing.push(await timeMs(() => client.send('GET', '/alerts/')));
			const session = activeTrigger(sim, {});

			const activation = await poll(session);
			const idle = [];
			for (let round = 0; round < IDLE_POLLS; round++) idle.push(await poll(session));
			const staticDataBytes = Math.max(
				JSON.stringify(session.savedNodeStaticData).length,
				JSON.stringify(session.liveStaticData?.[`node:${session.nodeName}`] ?? {}).length,
			);

			await sim.addAlerts(NEW_ALERTS);
			const withNew = await poll(session);

			const result: TriggerResult = {
				unread,
				listingBytes,
				plainListingMs: median(plainListing),
				activationPollMs: activation.ms,
				idlePollMs: median(idle.map(({ ms }) => ms)),
				requestsPerIdlePoll: Math.max(...idle.map(({ requests }) => requests)),
				newAlertsPollMs: withNew.ms,
				requestsPerNewAlertsPoll: withNew.requests,
				emittedOnNewAlertsPoll: withNew.emitted,
				staticDataBytes,
			};
			results.push(result);
			console.log(JSON.stringify(result));
		}
	} finally {
		await client.close();
		await sim.close();
	}
	reportResult(results);
});
