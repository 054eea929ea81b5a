import type { ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { asNodeError } from '../run/nodeErrors';
import { closeActivation } from './activationMemory';
import { emitNewAlerts } from './emitNewAlerts';
import { ACTIVATION_POLL_BUDGET_MS } from './pollRound';
import { readPollTimes, schedulePolls } from './pollSchedule';
import { readTriggerParameters } from './settings';
import { fetchTestEvent, startPoll } from './startPoll';

/**
 * The activation of versions 2 and 3. The first poll takes the baseline before the workflow counts
 * as active (n8n saves what it wrote once the activation is done, and activates again later when it
 * fails), within ACTIVATION_POLL_BUDGET_MS;
 * then n8n's cron helper starts a poll at each Poll Time. A failed poll is saved as a failed
 * execution, as n8n does for its poll triggers, and the next one tries again. Once n8n closes the
 * activation, a poll still running writes and emits nothing (see closeActivation).
 */
export async function startTrigger(context: ITriggerFunctions): Promise<ITriggerResponse> {
	// Read once, while n8n activates the workflow: a change of parameters activates it anew.
	const parameters = readTriggerParameters(context);
	if (context.getMode() === 'manual') {
		const manualTriggerFunction = async () =>
			context.emit(await fetchTestEvent(context, undefined, parameters));
		return { manualTriggerFunction };
	}
	const pollTimes = readPollTimes(context);
	const poll = async (budgetMs?: number) =>
		await startPoll(
			context,
			async (start) => await emitNewAlerts.call(context, start),
			budgetMs,
			parameters,
		);
	await poll(ACTIVATION_POLL_BUDGET_MS);
	schedulePolls(context, pollTimes, async () => {
		try {
			await poll();
		} catch (error) {
			context.saveFailedExecution(asNodeError(context.getNode(), error));
		}
	});
	return { closeFunction: async () => closeActivation(context) };
}
