import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { markAlertAsRead } from '../../api/alerts';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import { readAlertId } from '../../helpers/identifierParameters';
import { alertLocator, byVersion } from '../versionedFields';
import {
	budgetOption,
	concurrencyOption,
	optionsCollection,
	readRequestOptions,
	timeoutOption,
} from '../commonOptions';

const showFor = { resource: ['alert'], operation: ['markAsRead'] };

export const description: INodeProperties[] = [
	...byVersion(
		showFor,
		{
			displayName: 'Alert ID',
			name: 'alertId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 3f1c2b9e-8d4a-4c6b-9f0e-2a7d5c1b8e34',
			description:
				'The ID (a UUID) of the alert to mark as read, as given by Get Many or the trigger',
		},
		alertLocator,
	),
	optionsCollection(showFor, [concurrencyOption, budgetOption, timeoutOption]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs, pacing } = readRequestOptions(this);
	return await runForEachItem(this, pacing, async (itemIndex) => {
		const alertId = readAlertId(this, itemIndex);
		const answer = await markAlertAsRead.call(this, alertId, { itemIndex, timeoutMs });
		return pairRecords(itemIndex, [{ ...answer, alert_id: alertId }]);
	});
}
