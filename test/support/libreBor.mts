import type { IDataObject, INodeParameters, INodeType, WorkflowExecuteMode } from 'n8n-workflow';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { credentialsFor, runAction, type ActionResult } from '../../tools/engine/index.mts';
import {
	startSimulator,
	type Simulator,
	type SimulatorOptions,
} from '../../tools/simulator/index.mts';

export { credentialsFor };
export type { Simulator };

let simulatorsStarted = 0;

/**
 * One simulator per test file, back to its initial state before each test; or, `perTest`, a new
 * one for each test, with a user of its own, so a new account for what the nodes learn of its rate
 * limit (see nodes/LibreBor/pacing/learnedLimits.ts), for tests that need a run that knows nothing
 * yet: a new address alone may not be, as the system can give a closed simulator's port again.
 */
export function useSimulator(
	options: SimulatorOptions = {},
	{ perTest = false }: { perTest?: boolean } = {},
): () => Simulator {
	let sim: Simulator | undefined;
	const start = async () => {
		const ownUser = perTest ? { username: `api-user-${++simulatorsStarted}` } : {};
		sim = await startSimulator({ ...ownUser, ...options });
	};
	const close = async () => await sim?.close();
	if (perTest) {
		beforeEach(start);
		afterEach(close);
	} else {
		beforeAll(start);
		afterAll(close);
		beforeEach(() => sim?.reset());
	}
	return () => {
		if (!sim) throw new Error('The simulator has not started');
		return sim;
	};
}

/** Runs `work` with every answer of LibreBOR's API held `ms` longer, then answers as before. */
export async function withLatency<T>(
	sim: Simulator,
	ms: number,
	work: () => Promise<T>,
): Promise<T> {
	const { latencyMs } = sim.state;
	sim.state.latencyMs = ms;
	try {
		return await work();
	} finally {
		sim.state.latencyMs = latencyMs;
	}
}

/** Every text a user could see of a run: output items, error messages and descriptions. */
export function visibleText(result: ActionResult): string {
	const error = result.error as (Error & { description?: string; context?: unknown }) | undefined;
	return JSON.stringify({
		items: result.items.map((item) => ({
			json: item.json,
			binary: item.binary,
			error: item.error?.message,
			description: item.error?.description,
		})),
		error: error && {
			message: error.message,
			description: error.description,
			stack: error.stack,
			context: error.context,
		},
	});
}

export function expectNoSecret(result: ActionResult, secret: string) {
	expect(visibleText(result)).not.toContain(secret);
	expect(visibleText(result)).not.toContain(Buffer.from(`:${secret}`).toString('base64').slice(4));
}

export interface RunOptions {
	items?: IDataObject[];
	continueOnFail?: boolean;
	retryOnFail?: boolean;
	credentials?: IDataObject;
	/** Runs as an execution of this saved workflow (id and static data shared between runs). */
	workflow?: { id: string; staticData: IDataObject };
	/** The node's type name as n8n registers it, e.g. for the AI tool variant. */
	nodeTypeName?: string;
	/** A node instance, e.g. from a freshly loaded module, as another n8n process would have. */
	nodeType?: INodeType;
	/** n8n's execution mode; the harness defaults to 'manual'. */
	mode?: WorkflowExecuteMode;
	/** The node's type version as saved in the workflow (default: the latest). */
	typeVersion?: number;
	/** Cancels the execution this long after it starts. */
	cancelAfterMs?: number;
	/** Cancels the execution once this promise resolves. */
	cancelWhen?: Promise<unknown>;
	/** The workflow's Timezone setting. */
	timezone?: string;
	/** Runs the node in a loop over its input, this many items at a time. */
	loopBatchSize?: number;
	/** Runs as n8n's Retry of this failed execution, which hands on its execution data. */
	retryOf?: ActionResult;
	/** Runs under this execution id, as n8n resumes an execution that waited under its own. */
	executionId?: string;
}

const TAKE_A_COMPANY = new Set(['follow', 'unfollow', 'sync', 'order']);

/**
 * Follow, Unfollow, Sync and Order parameters written with the `nif` field (versions 1 and 2)
 * run on version 2, the last version that has it: version 3 names the company `company`.
 * Everything else runs on the newest version unless the test names one.
 */
function versionFor(parameters: INodeParameters): number | undefined {
	const takesNif = TAKE_A_COMPANY.has(String(parameters.operation)) && 'nif' in parameters;
	return takesNif ? 2 : undefined;
}

/** Runs the LibreBOR node through n8n's engine against the simulator; never leaks the password. */
export async function runLibreBor(
	sim: Simulator,
	parameters: INodeParameters,
	options: RunOptions = {},
) {
	const result = await runAction({
		nodeType: options.nodeType ?? new LibreBor(),
		workflow: options.workflow,
		nodeTypeName: options.nodeTypeName,
		mode: options.mode,
		parameters,
		credentials: credentialsFor(sim, options.credentials),
		items: options.items,
		continueOnFail: options.continueOnFail,
		retryOnFail: options.retryOnFail,
		typeVersion: options.typeVersion ?? versionFor(parameters),
		cancelAfterMs: options.cancelAfterMs,
		cancelWhen: options.cancelWhen,
		timezone: options.timezone,
		loopBatchSize: options.loopBatchSize,
		retryOf: options.retryOf,
		executionId: options.executionId,
	});
	expectNoSecret(result, sim.credentials.password);
	return result;
}

/** A document placed with the simulator directly, as an order would have placed it, for Get and Download. */
export function placedDocument(sim: Simulator, nif = 'B64717838') {
	const placed = sim.state.order({ nif, year: 2023, type: 'accounts', sendEmail: false });
	if (!placed.ok) throw new Error('The simulator refused the order');
	return placed.document;
}

export const jsonOf = (result: ActionResult) => result.items.map((item) => item.json);
export const pairedItemsOf = (result: ActionResult) => result.items.map((item) => item.pairedItem);
/**
 * The hints of a run, each as its message when n8n shows it in the output pane as information (as
 * every hint of the nodes is), else prefixed with where and how it is shown.
 */
export const hintsOf = (result: ActionResult) =>
	(result.runData[result.nodeName]?.[0]?.hints ?? []).map((hint) =>
		hint.type === 'info' && hint.location === 'outputPane'
			? hint.message
			: `${hint.type} at ${hint.location}: ${hint.message}`,
	);

/** The next read of the watch list answers `entities`, as LibreBOR might write them. */
export function answerWatchList(sim: Simulator, entities: unknown[]): void {
	sim.injectFault({
		method: 'GET',
		path: '/v2/alerts/following/',
		status: 200,
		body: JSON.stringify({ entities }),
		contentType: 'application/json',
	});
}
