import { DEFAULT_PACING } from '../pacing/pacer';
import { endNodeRun, startNodeRun, type NodeRun, type PollingFunctions } from '../run/nodeRun';
import { pollSampleAlerts } from './pollSampleAlerts';
import {
	readTriggerParameters,
	readTriggerSettings,
	readTriggerTimeoutMs,
	type TriggerParameters,
	type TriggerSettings,
} from './settings';

/**
 * Runs one poll as a run of its own: its reads and marks share one pacer and one time budget
 * (the poll's own when n8n's scheduler gives it one). The poll starts the run when it is ready
 * to, through the function it is handed, so that a skipped poll starts nothing.
 */
export async function startPoll<T>(
	context: PollingFunctions,
	poll: (start: () => Promise<TriggerSettings>) => Promise<T>,
	budgetMs = DEFAULT_PACING.budgetMs,
	parameters: TriggerParameters = readTriggerParameters(context),
): Promise<T> {
	let run: NodeRun | undefined;
	const start = async () => {
		run = startNodeRun(context, {
			pacing: { ...DEFAULT_PACING, budgetMs },
			timeoutMs: readTriggerTimeoutMs(context, parameters),
		});
		return await readTriggerSettings.call(context, run, parameters);
	};
	try {
		return await poll(start);
	} finally {
		if (run) endNodeRun(run);
	}
}

/** "Fetch Test Event": a few recent alerts, as a run of its own (pollSampleAlerts.ts). */
export const fetchTestEvent = async (
	context: PollingFunctions,
	budgetMs?: number,
	parameters?: TriggerParameters,
) =>
	await startPoll(
		context,
		async (start) => await pollSampleAlerts.call(context, await start()),
		budgetMs,
		parameters,
	);
