import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { PollMode, PollSessionOptions } from './pollSession.mts';
import { PollSession } from './pollSession.mts';

export interface RunPollOptions extends PollSessionOptions {
	/** The workflow static data saved after the previous poll; undefined the first time. */
	staticData?: IDataObject;
	mode?: PollMode;
	/**
	 * Run it as the first poll of an activation (n8n's "testing" poll: its errors fail the
	 * activation and, with durable cursors, an empty result commits nothing). Default: a
	 * regular tick of an already active workflow.
	 */
	activationPoll?: boolean;
}

export interface PollResult {
	items: INodeExecutionData[][] | null;
	/** The workflow static data n8n would have saved after this poll. */
	staticData: IDataObject;
}

/** One poll of a trigger through n8n-core's PollContext, from and to saved static data. */
export async function runPoll(options: RunPollOptions): Promise<PollResult> {
	const session = new PollSession(options);
	const mode = options.mode ?? 'trigger';
	if (mode === 'trigger' && !options.activationPoll) session.activateWithoutPolling();
	const items = await session.poll(mode);
	return { items, staticData: session.savedStaticData };
}
