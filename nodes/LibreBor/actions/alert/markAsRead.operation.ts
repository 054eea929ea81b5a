import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { markAlertAsRead } from '../../api/alerts';
import { pairRecords, runForEachItem } from '../../run/itemRunner';
import { readAlertId } from '../../parameters/identifierParameters';
import { alertIdFields, optionsCollection, pacedRequestOptions } from '../../descriptions';
import { readRunSettings } from '../../parameters/runSettings';

const displayOptions = { show: { resource: ['alert'], operation: ['markAsRead'] } };

const properties: INodeProperties[] = [...alertIdFields, optionsCollection(pacedRequestOptions)];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runForEachItem(this, readRunSettings(this), async (item) => {
		const alertId = readAlertId(this, item.itemIndex);
		const answer = await markAlertAsRead.call(this, alertId, item);
		return pairRecords(item.itemIndex, [{ ...answer, alert_id: alertId }]);
	});
}
