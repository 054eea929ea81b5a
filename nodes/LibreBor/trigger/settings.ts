import type { IDataObject } from 'n8n-workflow';

import { readTimeoutMs } from '../parameters/runSettings';
import { readToggle } from '../parameters/toggleOption';
import { resolveAlertFilter } from '../api/alerts';
import { readAlertFilterOptions, type AlertFilter } from '../alerts/alertFilter';
import type { AlertOutput } from '../alerts/alertRecords';
import type { NodeRun, PollingFunctions } from '../run/nodeRun';

const OUTPUTS: readonly AlertOutput[] = ['alert', 'entry', 'position'];

export interface TriggerSettings {
	output: AlertOutput;
	markAsRead: boolean;
	/** The labels as the user typed them, for messages. */
	labelText: string;
	/** Labels, company and creation time an alert must match to be emitted. */
	filter: AlertFilter;
	includeExisting: boolean;
	/** Each alert starts an execution of its own, under its own key (version 3); else a poll's new alerts start one. */
	executionPerAlert: boolean;
	/** The poll: its pacer and time budget, and the timeout of its requests. */
	run: NodeRun;
}

/** The node's parameters as a poll reads them; version 2 reads them once, at activation. */
export interface TriggerParameters {
	output: AlertOutput;
	options: IDataObject;
	timezone: string;
}

export function readTriggerParameters(context: PollingFunctions): TriggerParameters {
	const chosen = context.getNodeParameter('output', 'alert') as AlertOutput;
	return {
		output: OUTPUTS.includes(chosen) ? chosen : 'alert',
		options: context.getNodeParameter('options', {}) as IDataObject,
		timezone: context.getTimezone(),
	};
}

/** Request Timeout, which the poll's run needs before it sends anything. */
export function readTriggerTimeoutMs(
	context: PollingFunctions,
	parameters: TriggerParameters,
): number {
	const consequence = 'The trigger did not poll LibreBOR.';
	return readTimeoutMs(context.getNode(), parameters.options.timeout, consequence);
}

/** The trigger's settings, for a poll that runs as `run`; the company filter asks LibreBOR. */
export async function readTriggerSettings(
	this: PollingFunctions,
	run: NodeRun,
	{ output, options, timezone }: TriggerParameters,
): Promise<TriggerSettings> {
	const filter = await resolveAlertFilter.call(
		this,
		readAlertFilterOptions(this.getNode(), options, timezone),
		{ run },
	);
	return {
		output,
		markAsRead: readToggle(this.getNode(), options.markAsRead, {
			label: 'Mark as Read',
			fallback: false,
			consequence: 'The poll read nothing.',
		}),
		labelText: filter.labelText,
		filter,
		includeExisting: readToggle(this.getNode(), options.includeExisting, {
			label: 'Include Existing Alerts',
			fallback: false,
			consequence: 'The poll read nothing.',
		}),
		executionPerAlert: this.getNode().typeVersion >= 3,
		run,
	};
}
