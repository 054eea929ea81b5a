import type { ActionResult } from '../../tools/engine/index.mts';
import type { RequestMatcher, Simulator, SimulatorOptions } from '../../tools/simulator/index.mts';
import type { ActionInput } from './action-run.mts';
import { ACTION_TIMEOUT_S, type FaultKind } from './fault-kinds.mts';

export interface PreparedRun extends ActionInput {
	/** What is wrong with the output or the account after a run that should have worked. */
	wrongOutcome(result: ActionResult): string | undefined;
}

/** One operation of the action node, and the request of it that faults hit. */
export interface ActionOperation {
	name: string;
	simulatorOptions?: SimulatorOptions;
	target: RequestMatcher;
	/** The error message a fault at the target gives; undefined when the fault cannot happen there. */
	expectedError(kind: FaultKind): RegExp | undefined;
	/** Sets the account up and says what to run. */
	prepare(sim: Simulator): PreparedRun;
}

const NIF = 'B64717838';
const OTHER_NIF = 'A86212420';
const options = { timeout: ACTION_TIMEOUT_S };
const fromApi = (kind: FaultKind) => kind.apiError;

const outputCount = (result: ActionResult, count: number) =>
	result.items.length === count
		? undefined
		: `${result.items.length} output items instead of ${count}`;

const documentRead: RequestMatcher = { method: 'GET', path: /^\/v2\/documents\/[^/]+\/$/ };

function downloadDocument(sim: Simulator): PreparedRun {
	const documentId = sim.state.documents[0].id;
	return {
		parameters: {
			resource: 'document',
			operation: 'download',
			documentId,
			binaryPropertyName: 'data',
			options,
		},
		wrongOutcome: (result) =>
			outputCount(result, 1) ??
			(result.items[0].binary?.data && result.items[0].json.document_id === documentId
				? undefined
				: 'no file in the output'),
	};
}

export const ACTION_OPERATIONS: ActionOperation[] = [
	{
		name: 'Alert > Get Many',
		target: { method: 'GET', path: '/v2/alerts/' },
		expectedError: fromApi,
		prepare(sim) {
			const alerts = sim.state.addAlerts(2);
			return {
				parameters: { resource: 'alert', operation: 'getMany', options },
				wrongOutcome: (result) =>
					outputCount(result, 2) ??
					(alerts.every((alert) => result.items.some((item) => item.json.id === alert.id))
						? undefined
						: 'alerts missing'),
			};
		},
	},
	{
		name: 'Alert > Mark as Read',
		target: { method: 'GET', path: /^\/v2\/alerts\/mark_as_read\/(?!all\/)[^/]+\/$/ },
		expectedError: fromApi,
		prepare(sim) {
			const alert = sim.state.addAlert();
			return {
				parameters: { resource: 'alert', operation: 'markAsRead', alertId: alert.id, options },
				wrongOutcome: (result) =>
					outputCount(result, 1) ??
					(sim.state.unreadAlerts().length === 0 ? undefined : 'the alert is still unread'),
			};
		},
	},
	{
		name: 'Alert > Mark All as Read',
		target: { method: 'GET', path: '/v2/alerts/mark_as_read/all/' },
		expectedError: fromApi,
		prepare(sim) {
			sim.state.addAlerts(3);
			return {
				parameters: { resource: 'alert', operation: 'markAllAsRead', options },
				wrongOutcome: (result) =>
					outputCount(result, 1) ??
					(sim.state.unreadAlerts().length === 0 ? undefined : 'alerts are still unread'),
			};
		},
	},
	{
		name: 'Watch List > Follow',
		target: { method: 'POST', path: '/v2/alerts/follow/' },
		expectedError: fromApi,
		prepare(sim) {
			return {
				parameters: { resource: 'watchlist', operation: 'follow', nif: NIF, options },
				wrongOutcome: (result) =>
					outputCount(result, 1) ??
					(sim.state.watchlist.some((entity) => entity.nif === NIF) ? undefined : 'not followed'),
			};
		},
	},
	{
		name: 'Watch List > Unfollow',
		target: { method: 'POST', path: '/v2/alerts/unfollow/' },
		expectedError: fromApi,
		prepare(sim) {
			sim.state.follow(NIF);
			return {
				parameters: { resource: 'watchlist', operation: 'unfollow', nif: NIF, options },
				wrongOutcome: (result) =>
					outputCount(result, 1) ??
					(sim.state.watchlist.some((entity) => entity.nif === NIF) ? 'still followed' : undefined),
			};
		},
	},
	{
		name: 'Watch List > Get Many',
		target: { method: 'GET', path: '/v2/alerts/following/' },
		expectedError: fromApi,
		prepare(sim) {
			sim.state.follow(NIF);
			sim.state.follow(OTHER_NIF);
			return {
				parameters: { resource: 'watchlist', operation: 'getMany', options },
				wrongOutcome: (result) => outputCount(result, 2),
			};
		},
	},
	{
		name: 'Document > Get',
		simulatorOptions: { seed: true },
		target: documentRead,
		expectedError: fromApi,
		prepare(sim) {
			const documentId = sim.state.documents[0].id;
			return {
				parameters: { resource: 'document', operation: 'get', documentId, options },
				wrongOutcome: (result) =>
					outputCount(result, 1) ??
					(result.items[0].json.document_id === documentId ? undefined : 'wrong document'),
			};
		},
	},
	{
		name: 'Document > Download, faults on the document record',
		simulatorOptions: { seed: true },
		target: documentRead,
		expectedError: fromApi,
		prepare: downloadDocument,
	},
	{
		name: 'Document > Download, faults on the file host',
		simulatorOptions: { seed: true },
		target: { method: 'GET', origin: 'download', path: '/files/*' },
		expectedError: (kind) => kind.downloadError,
		prepare: downloadDocument,
	},
];
