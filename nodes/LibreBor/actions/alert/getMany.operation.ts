import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { listUnreadAlerts } from '../../api/alerts';
import { alertMatchesLabels, alertToEntries, entryMatchesLabels, parseLabelFilter } from '../../helpers/alerts';
import { pairWith, runForEachItem } from '../../helpers/itemRunner';
import { readRequestOptions, timeoutOption } from '../commonOptions';

const showFor = { resource: ['alert'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: true,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: { show: showFor },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { ...showFor, returnAll: [false] } },
	},
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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showFor },
		options: [
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
		],
	},
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestOptions(this);
	return await runForEachItem(this, 1, async (itemIndex) => {
		const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
		const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex) as number);
		const output = this.getNodeParameter('output', itemIndex) as 'alert' | 'entry';
		const labels = parseLabelFilter(this.getNodeParameter('options.labels', itemIndex, '') as string);

		const alerts = (await listUnreadAlerts.call(this, itemIndex, timeoutMs)).filter((alert) =>
			alertMatchesLabels(alert, labels),
		);
		const records: IDataObject[] =
			output === 'entry'
				? alerts.flatMap((alert) => alertToEntries(alert).filter((entry) => entryMatchesLabels(entry, labels)))
				: alerts;
		return pairWith(itemIndex, records.slice(0, limit));
	});
}
