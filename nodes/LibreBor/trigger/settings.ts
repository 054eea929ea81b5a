import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { parseLabelFilter } from '../helpers/alerts';
import { DEFAULT_TIMEOUT_MS } from '../transport/request';

export type TriggerOutput = 'alert' | 'entry';

export interface TriggerSettings {
	output: TriggerOutput;
	markAsRead: boolean;
	/** Normalised labels; empty means every label. */
	labels: string[];
	/** The labels as the user typed them, for messages. */
	labelText: string;
	includeExisting: boolean;
	timeoutMs: number;
}

export function readTriggerSettings(this: IPollFunctions): TriggerSettings {
	const output = this.getNodeParameter('output', 'alert') === 'entry' ? 'entry' : 'alert';
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const labelText = typeof options.labels === 'string' ? options.labels.trim() : '';
	return {
		output,
		markAsRead: options.markAsRead === true,
		labels: parseLabelFilter(labelText),
		labelText,
		includeExisting: options.includeExisting === true,
		timeoutMs: Math.round((typeof options.timeout === 'number' ? options.timeout : DEFAULT_TIMEOUT_MS / 1000) * 1000),
	};
}
