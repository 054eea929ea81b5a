import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listUnreadAlerts, resolveAlertFilter } from '../../api/alerts';
import { alertPassesFilter, readAlertFilterOptions } from '../../alerts/alertFilter';
import { recordsOfAlert, type AlertOutput } from '../../alerts/alertRecords';
import { pairRecords, runForEachItem } from '../../run/itemRunner';
import {
	ALERT_OUTPUT_OPTIONS,
	alertFilterFields,
	alertFilterFieldsWithCategories,
	alertOutputField,
	byVersion,
	optionsCollection,
	PERSON_CHANGE_OUTPUT_OPTION,
	returnAllFields,
	timeoutOption,
} from '../../descriptions';
import { readLimit } from '../../parameters/listLimit';
import { readOneItemAtATimeSettings } from '../../parameters/runSettings';

const displayOptions = { show: { resource: ['alert'], operation: ['getMany'] } };

// Version 2 adds the act categories and the person changes; version 1 stays as it was.
const properties: INodeProperties[] = [
	...returnAllFields,
	...byVersion(
		alertOutputField(ALERT_OUTPUT_OPTIONS),
		alertOutputField([...ALERT_OUTPUT_OPTIONS, PERSON_CHANGE_OUTPUT_OPTION]),
	),
	...byVersion(
		optionsCollection([...alertFilterFields, timeoutOption]),
		optionsCollection([...alertFilterFieldsWithCategories, timeoutOption]),
	),
];

export const description = updateDisplayOptions(displayOptions, properties);

const NO_UNREAD_ALERTS_HINT =
	'LibreBOR has no unread alerts for this account. Alerts appear when a company on the watch list is published in the BORME: follow one (Watch List > Follow), or point the credential at the sandbox environment to try the node with sample alerts.';

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const settings = readOneItemAtATimeSettings(this);
	let sawNoAlerts = false;
	const results = await runForEachItem(this, settings, async (item) => {
		const { itemIndex } = item;
		const limit = readLimit(this, itemIndex);
		const output = this.getNodeParameter('output', itemIndex) as AlertOutput;
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const filterOptions = readAlertFilterOptions(
			this.getNode(),
			options,
			this.getTimezone(),
			itemIndex,
		);
		const filter = await resolveAlertFilter.call(this, filterOptions, item);

		const listing = await listUnreadAlerts.call(this, item);
		if (listing.length === 0) sawNoAlerts = true;
		const alerts = listing.filter((alert) => alertPassesFilter(alert, filter));
		const categorised = this.getNode().typeVersion >= 2;
		const records = alerts.flatMap((alert) => recordsOfAlert(alert, output, filter, categorised));
		// Wrapped here, so that a record with its own `json` key is never taken for an item.
		return pairRecords(itemIndex, records.slice(0, limit));
	});
	if (sawNoAlerts)
		this.addExecutionHints({
			message: NO_UNREAD_ALERTS_HINT,
			type: 'info',
			location: 'outputPane',
		});
	return results;
}
