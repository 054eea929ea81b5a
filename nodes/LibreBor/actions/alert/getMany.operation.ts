import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { listUnreadAlerts } from '../../api/alerts';
import { alertMatchesLabels, alertToEntries, entryMatchesLabels, parseLabelFilter } from '../../helpers/alerts';
import { pairWith, runForEachItem } from '../../helpers/itemRunner';
import { optionsCollection, readLimit, readRequestOptions, returnAllFields, timeoutOption } from '../commonOptions';

const showFor = { resource: ['alert'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	...returnAllFields(showFor),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'One Item per Alert',
				value: 'alert',
				description: 'Each alert as LibreBOR returns it, with its bulletin entries in "data"',
			},
			{
				name: 'One Item per Bulletin Entry',
				value: 'entry',
				description:
					'Each bulletin entry of each alert as a flat item with the alert fields alongside, ready for a sheet or a message',
			},
		],
		default: 'alert',
		displayOptions: { show: showFor },
	},
	optionsCollection(showFor, [
			{
				displayName: 'Act Labels',
				name: 'labels',
				type: 'string',
				default: '',
				placeholder: 'Nombramientos, Revocaciones, Ceses/Dimisiones',
				description:
					'Comma-separated BORME act labels to keep (case and accents ignored). An alert is kept when one of its entries matches. Empty keeps every label.',
			},
			timeoutOption,
		]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestOptions(this);
	return await runForEachItem(this, 1, async (itemIndex) => {
		const limit = readLimit(this, itemIndex);
		const output = this.getNodeParameter('output', itemIndex) as 'alert' | 'entry';
		const labels = parseLabelFilter(this.getNodeParameter('options.labels', itemIndex, '') as string);

		const alerts = (await listUnreadAlerts.call(this, itemIndex, timeoutMs)).filter((alert) =>
			alertMatchesLabels(alert, labels),
		);
		const records: IDataObject[] =
			output === 'entry'
				? alerts.flatMap((alert) => alertToEntries(alert).filter((entry) => entryMatchesLabels(entry, labels)))
				: alerts;
		// Wrapped here, so that a record with its own `json` key is never taken for an item.
		return pairWith(itemIndex, records.slice(0, limit).map((json) => ({ json })));
	});
}
