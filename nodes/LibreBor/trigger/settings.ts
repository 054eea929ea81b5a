import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { timeoutOption } from '../actions/commonOptions';
import { readAlertFilterOptions, resolveAlertFilter, type AlertFilter } from '../helpers/alertFilter';
import { readNumericOption, secondsToTimerMs } from '../helpers/numericOption';
import { DEFAULT_TIMEOUT_MS } from '../transport/request';

export type TriggerOutput = 'alert' | 'entry';

export interface TriggerSettings {
	output: TriggerOutput;
	markAsRead: boolean;
	/** Normalised labels; empty means every label. */
	labels: string[];
	/** The labels as the user typed them, for messages. */
	labelText: string;
	/** Labels, company and creation time an alert must match to be emitted. */
	filter: AlertFilter;
	includeExisting: boolean;
	timeoutMs: number;
}

export async function readTriggerSettings(this: IPollFunctions): Promise<TriggerSettings> {
	const output = this.getNodeParameter('output', 'alert') === 'entry' ? 'entry' : 'alert';
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const timeoutSeconds = readNumericOption(this.getNode(), options.timeout, {
		label: timeoutOption.displayName,
		fallback: DEFAULT_TIMEOUT_MS / 1000,
		minimum: 0.1,
		consequence: 'The trigger did not poll LibreBOR.',
	});
	const timeoutMs = secondsToTimerMs(timeoutSeconds);
	const filter = await resolveAlertFilter.call(this, readAlertFilterOptions(this.getNode(), options, this.getTimezone()), { timeoutMs });
	return {
		output,
		markAsRead: options.markAsRead === true,
		labels: filter.labels,
		labelText: filter.labelText,
		filter,
		includeExisting: options.includeExisting === true,
		timeoutMs,
	};
}
