import type { INodeParameters } from 'n8n-workflow';

import type { ActionResult } from '../../tools/engine/index.mts';
import type { PerOperation } from '../../tools/nodeOperations.mts';
import type { RequestMatcher, Simulator, SimulatorOptions } from '../../tools/simulator/index.mts';
import { runLibreBor } from '../support/libreBor.mts';
import {
	invariantProblems,
	persistentFaultProblems,
	recoveryProblems,
	requestCount,
} from './checks.mts';
import {
	caseName,
	firstError,
	injectFault,
	modesOf,
	TARGETS,
	type FaultMode,
	type Lane,
	type LaneCase,
} from './faultCase.mts';
import { ACTION_TIMEOUT_S, FAULT_KINDS, type FaultKind } from './faultKinds.mts';
import { ORDER_LANES } from './orderLanes.mts';

interface ExpectedError {
	message: RegExp;
	advice?: RegExp;
}

interface PreparedRun {
	parameters: INodeParameters;
	/** What is wrong with the output or the account after a run that should have worked. */
	wrongOutcome(result: ActionResult): string | undefined;
}

/** One operation of the action node, and the request of it that faults hit. */
interface ActionOperation {
	name: string;
	simulatorOptions?: SimulatorOptions;
	target: RequestMatcher;
	/**
	 * The error message a fault at the target gives and the advice of its description; undefined
	 * when the fault cannot happen there. By default the API's.
	 */
	expectedError?(kind: FaultKind): ExpectedError | undefined;
	/** Sets the account up and says what to run. */
	prepare(sim: Simulator): PreparedRun;
}

const NIF = 'B64717838';
const OTHER_NIF = 'A86212420';
const options = { timeout: ACTION_TIMEOUT_S };

/** The output has `count` items, and `wrong` finds nothing else wrong with it. */
const expectOutput =
	(count: number, wrong: (result: ActionResult) => string | false = () => false) =>
	(result: ActionResult) =>
		result.items.length !== count
			? `${result.items.length} output items instead of ${count}`
			: wrong(result) || undefined;

const follows = (sim: Simulator) => sim.state.watchlist.some((entity) => entity.nif === NIF);

/**
 * Sync, with Unfollow Others, of a one-company sheet (NIF) against a watch list that already holds
 * these companies: afterwards the watch list holds NIF only. Each lane's sync makes one change of
 * the kind its faults strike, so that no other request's answer counts as progress for the pacer.
 */
const syncOneCompany =
	(watched: string[]) =>
	(sim: Simulator): PreparedRun => {
		for (const nif of watched) sim.state.follow(nif);
		const unfollows = watched.filter((nif) => nif !== NIF).length;
		return {
			parameters: {
				resource: 'watchlist',
				operation: 'sync',
				nif: NIF,
				unfollowOthers: true,
				options,
			},
			wrongOutcome: expectOutput(1 + unfollows, () => {
				const nifs = sim.state.watchlist.map((entity) => entity.nif);
				return (nifs.length !== 1 || nifs[0] !== NIF) && `the watch list holds ${nifs.join(', ')}`;
			}),
		};
	};

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
		wrongOutcome: expectOutput(
			1,
			({ items }) =>
				!(items[0].binary?.data && items[0].json.document_id === documentId) &&
				'no file in the output',
		),
	};
}

const alertGetMany: ActionOperation = {
	name: 'Alert > Get Many',
	target: TARGETS.alertListing,
	prepare(sim) {
		const alerts = sim.state.addAlerts(2);
		return {
			parameters: { resource: 'alert', operation: 'getMany', options },
			wrongOutcome: expectOutput(
				2,
				({ items }) =>
					!alerts.every((alert) => items.some((item) => item.json.id === alert.id)) &&
					'alerts missing',
			),
		};
	},
};

const alertMarkAsRead: ActionOperation = {
	name: 'Alert > Mark as Read',
	target: TARGETS.markOne,
	prepare(sim) {
		const alert = sim.state.addAlert();
		return {
			parameters: { resource: 'alert', operation: 'markAsRead', alertId: alert.id, options },
			wrongOutcome: expectOutput(
				1,
				() => sim.state.unreadAlerts().length > 0 && 'the alert is still unread',
			),
		};
	},
};

const alertMarkAllAsRead: ActionOperation = {
	name: 'Alert > Mark All as Read',
	target: TARGETS.markAll,
	prepare(sim) {
		sim.state.addAlerts(3);
		return {
			parameters: { resource: 'alert', operation: 'markAllAsRead', options },
			wrongOutcome: expectOutput(
				1,
				() => sim.state.unreadAlerts().length > 0 && 'alerts are still unread',
			),
		};
	},
};

const watchlistFollow: ActionOperation = {
	name: 'Watch List > Follow',
	target: TARGETS.follow,
	prepare: (sim) => ({
		parameters: { resource: 'watchlist', operation: 'follow', nif: NIF, options },
		wrongOutcome: expectOutput(1, () => !follows(sim) && 'not followed'),
	}),
};

const watchlistUnfollow: ActionOperation = {
	name: 'Watch List > Unfollow',
	target: TARGETS.unfollow,
	prepare(sim) {
		sim.state.follow(NIF);
		return {
			parameters: { resource: 'watchlist', operation: 'unfollow', nif: NIF, options },
			wrongOutcome: expectOutput(1, () => follows(sim) && 'still followed'),
		};
	},
};

const watchlistGetMany: ActionOperation = {
	name: 'Watch List > Get Many',
	target: TARGETS.watchlist,
	prepare(sim) {
		sim.state.follow(NIF);
		sim.state.follow(OTHER_NIF);
		return {
			parameters: { resource: 'watchlist', operation: 'getMany', options },
			wrongOutcome: expectOutput(2),
		};
	},
};

const documentGet: ActionOperation = {
	name: 'Document > Get',
	simulatorOptions: { seed: true },
	target: TARGETS.documentRead,
	prepare(sim) {
		const documentId = sim.state.documents[0].id;
		return {
			parameters: { resource: 'document', operation: 'get', documentId, options },
			wrongOutcome: expectOutput(
				1,
				({ items }) => items[0].json.document_id !== documentId && 'wrong document',
			),
		};
	},
};

const documentDownloadRecord: ActionOperation = {
	name: 'Document > Download, faults on the document record',
	simulatorOptions: { seed: true },
	target: TARGETS.documentRead,
	prepare: downloadDocument,
};

const documentDownloadFile: ActionOperation = {
	name: 'Document > Download, faults on the file host',
	simulatorOptions: { seed: true },
	target: TARGETS.fileDownload,
	expectedError: (kind) =>
		kind.downloadError && { message: kind.downloadError, advice: kind.downloadAdvice },
	prepare: downloadDocument,
};

/** `Get Incorporation` as n8n names the operation: `getIncorporation`. */
const camelCase = (words: string) =>
	words
		.split(' ')
		.map((word, index) => (index === 0 ? word.toLowerCase() : word))
		.join('');

/**
 * A registry look-up of one record, named `Resource > Operation` as the node shows it; its
 * parameters beyond those two, and the one field of its output item that shows it worked.
 */
function lookUp(
	name: string,
	target: RequestMatcher,
	more: INodeParameters,
	[field, expected]: [string, unknown],
): ActionOperation {
	const [resource, operation] = name.split(' > ');
	const parameters = { resource: resource.toLowerCase(), operation: camelCase(operation), ...more };
	return {
		name,
		target,
		prepare: () => ({
			parameters: { ...parameters, options },
			wrongOutcome: expectOutput(
				1,
				({ items }) => items[0].json[field] !== expected && `${field} is not ${String(expected)}`,
			),
		}),
	};
}

const BRISAS = 'brisas-del-llobregat';
const JORDI = 'ibanez-ortega-jordi';
const bySlug = (value: string) => ({ __rl: true, mode: 'slug', value });
const T = TARGETS;

const companySearch = lookUp('Company > Search', T.companySearch, { query: 'brisas llobregat' }, [
	'slug',
	BRISAS,
]);
const companyGet = lookUp(
	'Company > Get',
	T.companyByNif,
	{ company: { __rl: true, mode: 'nif', value: NIF } },
	['nif', NIF],
);
const companyGetIncorporation = lookUp(
	'Company > Get Incorporation',
	T.incorporation,
	{ company: bySlug(BRISAS) },
	['nif', NIF],
);
const personSearch = lookUp('Person > Search', T.personSearch, { query: 'ibañez jordi' }, [
	'slug',
	JORDI,
]);
const personGet = lookUp('Person > Get', T.personBySlug, { person: bySlug(JORDI) }, [
	'name',
	'IBAÑEZ ORTEGA JORDI',
]);
const nifGetInfo = lookUp('NIF > Get Info', T.nifInfo, { nif: NIF }, ['valid', true]);

const watchlistSyncLanes: ActionOperation[] = [
	{
		name: 'Watch List > Sync, faults on the follow',
		target: TARGETS.follow,
		prepare: syncOneCompany([]),
	},
	{
		name: 'Watch List > Sync, faults on the unfollow',
		target: TARGETS.unfollow,
		prepare: syncOneCompany([NIF, OTHER_NIF]),
	},
	{
		name: 'Watch List > Sync, faults on the watch-list read',
		target: TARGETS.watchlist,
		prepare: syncOneCompany([OTHER_NIF]),
	},
];

function actionCase(
	operation: ActionOperation,
	kind: FaultKind,
	mode: FaultMode,
	expected: ExpectedError,
): LaneCase {
	return {
		name: caseName(kind, mode),
		async run(sim) {
			const prepared = operation.prepare(sim);
			injectFault(sim, operation.target, kind, mode);
			const result = await runLibreBor(sim, prepared.parameters);
			const sent = requestCount(sim, operation.target);
			const error = firstError(result);
			return [
				...invariantProblems(sim, result),
				...(kind.transient && mode === 'once'
					? recoveryProblems(error, prepared.wrongOutcome(result), sent)
					: persistentFaultProblems(
							kind,
							operation.target,
							error,
							expected.message,
							sent,
							expected.advice,
						)),
			];
		},
	};
}

/** A lane of the cases of every fault that can strike the operation's request. */
function laneOf(operation: ActionOperation): Lane {
	return {
		name: operation.name,
		simulatorOptions: operation.simulatorOptions,
		cases: FAULT_KINDS.flatMap((kind) => {
			const expected = operation.expectedError
				? operation.expectedError(kind)
				: { message: kind.apiError, advice: kind.advice };
			if (!expected) return [];
			return modesOf(kind).map((mode) => actionCase(operation, kind, mode, expected));
		}),
	};
}

/**
 * Every operation of the action node against every fault that can strike its requests, one lane
 * per request. Typed by the node's own table of operations: a new operation does not compile
 * here until it has its lanes, and the suite checks that each has cases.
 */
export const ACTION_LANES: PerOperation<Lane[]> = {
	alert: {
		getMany: [laneOf(alertGetMany)],
		markAsRead: [laneOf(alertMarkAsRead)],
		markAllAsRead: [laneOf(alertMarkAllAsRead)],
	},
	watchlist: {
		follow: [laneOf(watchlistFollow)],
		unfollow: [laneOf(watchlistUnfollow)],
		getMany: [laneOf(watchlistGetMany)],
		sync: watchlistSyncLanes.map(laneOf),
	},
	document: {
		order: ORDER_LANES,
		get: [laneOf(documentGet)],
		download: [laneOf(documentDownloadRecord), laneOf(documentDownloadFile)],
	},
	company: {
		search: [laneOf(companySearch)],
		get: [laneOf(companyGet)],
		getIncorporation: [laneOf(companyGetIncorporation)],
	},
	person: { search: [laneOf(personSearch)], get: [laneOf(personGet)] },
	nif: { getInfo: [laneOf(nifGetInfo)] },
};
