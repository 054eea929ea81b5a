import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { markAlertAsRead } from '../../api/alerts';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import { readAlertId } from '../../helpers/identifierParameters';
import {
	alertIdFields,
	optionsCollection,
	pacedRequestOptions,
	readRequestOptions,
} from '../../descriptions';

const displayOptions = { show: { resource: ['alert'], operation: ['markAsRead'] } };

const properties: INodeProperties[] = [...alertIdFields, optionsCollection(pacedRequestOptions)];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs, pacing } = readRequestOptions(this);
	return await runForEachItem(this, pacing, async (itemIndex) => {
		const alertId = readAlertId(this, itemIndex);
		const answer = await markAlertAsRead.call(this, alertId, { itemIndex, timeoutMs });
		return pairRecords(itemIndex, [{ ...answer, alert_id: alertId }]);
	});
}
