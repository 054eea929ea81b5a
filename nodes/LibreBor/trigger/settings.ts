import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { readTimeoutMs } from '../descriptions';
import { resolveAlertFilter } from '../api/alerts';
import { readAlertFilterOptions, type AlertFilter } from '../helpers/alertFilter';
import type { AlertOutput } from '../helpers/alertRecords';

const OUTPUTS: readonly AlertOutput[] = ['alert', 'entry', 'position'];

export interface TriggerSettings {
	output: AlertOutput;
	markAsRead: boolean;
	/** The labels as the user typed them, for messages. */
	labelText: string;
	/** Labels, company and creation time an alert must match to be emitted. */
	filter: AlertFilter;
	includeExisting: boolean;
	timeoutMs: number;
}

export async function readTriggerSettings(this: IPollFunctions): Promise<TriggerSettings> {
	const chosen = this.getNodeParameter('output', 'alert') as AlertOutput;
	const output = OUTPUTS.includes(chosen) ? chosen : 'alert';
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const timeoutMs = readTimeoutMs(
		this.getNode(),
		options.timeout,
		'The trigger did not poll LibreBOR.',
	);
	const filter = await resolveAlertFilter.call(
		this,
		readAlertFilterOptions(this.getNode(), options, this.getTimezone()),
		{ timeoutMs },
	);
	return {
		output,
		markAsRead: options.markAsRead === true,
		labelText: filter.labelText,
		filter,
		includeExisting: options.includeExisting === true,
		timeoutMs,
	};
}
