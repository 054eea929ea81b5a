import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollNewAlerts } from './pollNewAlerts';
import { fetchTestEvent, startPoll } from './startPoll';

/** One poll of version 1, in the time budget n8n's scheduler gives it, if any. */
export async function pollV1(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const budgetMs =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
	if (context.getMode() === 'manual') return await fetchTestEvent(context, budgetMs);
	return await startPoll(
		context,
		async (start) => await pollNewAlerts.call(context, start),
		budgetMs,
	);
}
