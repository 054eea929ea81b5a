import type { Alert, Simulator } from '../../tools/simulator/index.mts';

/** Resolves once the simulator has served the next alert listing: alerts added later are not in it. */
export const nextAlertListing = (sim: Simulator) =>
	new Promise<void>((resolve) =>
		sim.onRequest({ method: 'GET', path: '/v2/alerts/' }, () => resolve()),
	);

export const markRequests = (sim: Simulator, alert: Alert) =>
	sim.requestsTo('GET', `/v2/alerts/mark_as_read/${alert.id}/`);
