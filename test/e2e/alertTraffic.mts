import { expect, vi } from 'vitest';

import type { Alert, LoggedRequest, Simulator } from '../../tools/simulator/index.mts';

const isAlertListing = (request: LoggedRequest) =>
	request.method === 'GET' && request.path === '/v2/alerts/';

/** Resolves once the simulator has served the next alert listing: alerts added later are not in it. */
export const nextAlertListing = (sim: Simulator) =>
	new Promise<void>((resolve) =>
		sim.onRequest({ method: 'GET', path: '/v2/alerts/' }, () => resolve()),
	);

export const markRequests = (sim: Simulator, alert: Alert) =>
	sim.requestsTo('GET', `/v2/alerts/mark_as_read/${alert.id}/`);

/**
 * Resolves once every alert is marked and the poll that marked the last has listed the alerts,
 * which a poll does after its marks. Stopping n8n before that stops the poll in the middle: n8n
 * closes its database before it stops its triggers, so the poll's next request cannot read its
 * credential, and n8n logs that it could not save that failed poll.
 */
export async function markedAndListed(sim: Simulator, alerts: Alert[], timeoutMs: number) {
	await vi.waitFor(
		() => {
			const marks = alerts.map((alert) => sim.requests.indexOf(markRequests(sim, alert)[0]));
			expect(marks).not.toContain(-1);
			expect(sim.requests.slice(Math.max(...marks)).some(isAlertListing)).toBe(true);
		},
		{ timeout: timeoutMs, interval: 200 },
	);
}
