import { setTimeout as sleep } from 'node:timers/promises';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { makeCif, type RequestMatcher, type Simulator } from '../../tools/simulator/index.mts';
import { runLibreBor } from '../support/libreBor.mts';
import { clearErrorProblems, invariantProblems, requestCount } from './checks.mts';
import { injectFault, problemIf, TARGETS, type Lane, type LaneCase } from './faultCase.mts';
import { REFUSED_PASSWORD } from './faultKinds.mts';

const ITEMS = 12;
/**
 * The requests a run starts with (a few, see Parallel Requests): the failing one and those sent
 * beside it, before any answer came. The other items wait in the run's pacer and are never sent.
 */
const FIRST_ROUND = 4;

interface BatchOperation {
	name: string;
	target: RequestMatcher;
	prepare(sim: Simulator): { parameters: INodeParameters; items: IDataObject[] };
}

const nifs = Array.from({ length: ITEMS }, (_, index) => makeCif('B', String(7000001 + index)));
const byNif = { __rl: true, mode: 'nif', value: '={{ $json.nif }}' };
const documentItems = (sim: Simulator) =>
	nifs.map(() => ({ documentId: sim.state.documents[0].id }));

const BATCH_OPERATIONS: BatchOperation[] = [
	{
		name: 'Alert > Mark as Read',
		target: TARGETS.markOne,
		prepare: (sim) => ({
			parameters: { resource: 'alert', operation: 'markAsRead', alertId: '={{ $json.id }}' },
			items: sim.state.addAlerts(ITEMS).map(({ id }) => ({ id })),
		}),
	},
	{
		name: 'Watch List > Follow',
		target: TARGETS.follow,
		prepare: () => ({
			parameters: { resource: 'watchlist', operation: 'follow', nif: '={{ $json.nif }}' },
			items: nifs.map((nif) => ({ nif })),
		}),
	},
	{
		name: 'Watch List > Unfollow',
		target: TARGETS.unfollow,
		prepare: (sim) => {
			nifs.forEach((nif) => sim.state.follow(nif));
			return {
				parameters: { resource: 'watchlist', operation: 'unfollow', nif: '={{ $json.nif }}' },
				items: nifs.map((nif) => ({ nif })),
			};
		},
	},
	{
		name: 'Watch List > Sync',
		target: TARGETS.follow,
		prepare: () => ({
			parameters: { resource: 'watchlist', operation: 'sync', nif: '={{ $json.nif }}' },
			items: nifs.map((nif) => ({ nif })),
		}),
	},
	{
		name: 'Company > Get',
		target: TARGETS.companyByNif,
		prepare: (sim) => {
			// Companies the registry knows by NIF: the directory has seen them.
			nifs.forEach((nif) => sim.state.companies.get(nif));
			return {
				parameters: { resource: 'company', operation: 'get', company: byNif },
				items: nifs.map((nif) => ({ nif })),
			};
		},
	},
	{
		name: 'Watch List > Follow (version 3), a company by slug',
		target: TARGETS.companyBySlug,
		prepare: (sim) => ({
			parameters: {
				resource: 'watchlist',
				operation: 'follow',
				company: { __rl: true, mode: 'slug', value: '={{ $json.slug }}' },
			},
			items: nifs.map((nif) => ({ slug: sim.state.companies.get(nif).slug })),
		}),
	},
	{
		name: 'Document > Get',
		target: TARGETS.documentRead,
		prepare: (sim) => ({
			parameters: { resource: 'document', operation: 'get', documentId: '={{ $json.documentId }}' },
			items: documentItems(sim),
		}),
	},
	{
		name: 'Document > Download',
		target: TARGETS.fileDownload,
		prepare: (sim) => ({
			parameters: {
				resource: 'document',
				operation: 'download',
				documentId: '={{ $json.documentId }}',
				binaryPropertyName: 'data',
			},
			items: documentItems(sim),
		}),
	},
];

/** Waits until no request has arrived for a while: whatever the node still had going has landed. */
async function untilQuiet(sim: Simulator, quietMs = 300): Promise<void> {
	for (let seen = -1; seen !== sim.requests.length; ) {
		seen = sim.requests.length;
		await sleep(quietMs);
	}
}

/**
 * Without "continue on fail", the first failing item fails the node: the items already in
 * flight may finish, but no other item is sent once the failure is known.
 */
function stopCase(operation: BatchOperation): LaneCase {
	return {
		name: `${operation.name}, ${ITEMS} items, ${REFUSED_PASSWORD.name} on the first`,
		async run(sim) {
			const { parameters, items } = operation.prepare(sim);
			injectFault(sim, operation.target, REFUSED_PASSWORD, 'once');
			const result = await runLibreBor(sim, parameters, { items });
			await untilQuiet(sim);
			const sent = requestCount(sim, operation.target);
			const { apiError, downloadError } = REFUSED_PASSWORD;
			return [
				...invariantProblems(sim, result),
				...clearErrorProblems(result.error, operation.target.origin ? downloadError! : apiError),
				...problemIf(
					'stops on failure',
					sent > FIRST_ROUND
						? `${sent} of ${ITEMS} items were sent, more than the ${FIRST_ROUND} sent before the failure was known`
						: undefined,
				),
			];
		},
	};
}

/**
 * A lane, and so a simulator, per operation: every case is the first run of its account, which
 * starts with FIRST_ROUND in flight. A later run starts from what earlier runs with the account
 * learned (up to Parallel Requests at once), and all of its first round is sent before the
 * failure is known.
 */
export const STOP_ON_FAILURE_LANES: Lane[] = BATCH_OPERATIONS.map((operation) => ({
	name: `A failing item stops the other items: ${operation.name}`,
	simulatorOptions: { seed: true },
	cases: [stopCase(operation)],
}));
