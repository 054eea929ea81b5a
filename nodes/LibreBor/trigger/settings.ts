import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { readTimeoutMs } from '../descriptions';
import { resolveAlertFilter } from '../api/alerts';
import { readAlertFilterOptions, type AlertFilter } from '../helpers/alertFilter';
import type { AlertOutput } from '../helpers/alertRecords';
import type { NodeRun } from '../helpers/nodeRun';

const OUTPUTS: readonly AlertOutput[] = ['alert', 'entry', 'position'];

export interface TriggerSettings {
	output: AlertOutput;
	markAsRead: boolean;
	/** The labels as the user typed them, for messages. */
	labelText: string;
	/** Labels, company and creation time an alert must match to be emitted. */
	filter: AlertFilter;
	includeExisting: boolean;
	/** The poll: its pacer and time budget, and the timeout of its requests. */
	run: NodeRun;
}

const optionsOf = (context: IPollFunctions) =>
	context.getNodeParameter('options', {}) as IDataObject;

/** Request Timeout, which the poll's run needs before it sends anything. */
export function readTriggerTimeoutMs(context: IPollFunctions): number {
	const consequence = 'The trigger did not poll LibreBOR.';
	return readTimeoutMs(context.getNode(), optionsOf(context).timeout, consequence);
}

/** The trigger's parameters, for a poll that runs as `run`; the company filter asks LibreBOR. */
export async function readTriggerSettings(
	this: IPollFunctions,
	run: NodeRun,
): Promise<TriggerSettings> {
	const chosen = this.getNodeParameter('output', 'alert') as AlertOutput;
	const output = OUTPUTS.includes(chosen) ? chosen : 'alert';
	const options = optionsOf(this);
	const filter = await resolveAlertFilter.call(
		this,
		readAlertFilterOptions(this.getNode(), options, this.getTimezone()),
		{ run },
	);
	return {
		output,
		markAsRead: options.markAsRead === true,
		labelText: filter.labelText,
		filter,
		includeExisting: options.includeExisting === true,
		run,
	};
}
