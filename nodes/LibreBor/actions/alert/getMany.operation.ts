import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listUnreadAlerts, resolveAlertFilter } from '../../api/alerts';
import { alertPassesFilter, readAlertFilterOptions } from '../../helpers/alertFilter';
import { recordsOfAlert, type AlertOutput } from '../../helpers/alertRecords';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';
import {
	ALERT_OUTPUT_OPTIONS,
	alertFilterFields,
	alertFilterFieldsWithCategories,
	byVersion,
	optionsCollection,
	PERSON_CHANGE_OUTPUT_OPTION,
	readLimit,
	readRequestOptions,
	returnAllFields,
	timeoutOption,
} from '../../descriptions';

const displayOptions = { show: { resource: ['alert'], operation: ['getMany'] } };

const outputField = (options: INodePropertyOptions[]): INodeProperties => ({
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options,
	default: 'alert',
});

// Version 2 adds the act categories and the person changes; version 1 stays as it was.
const properties: INodeProperties[] = [
	...returnAllFields,
	...byVersion(
		outputField(ALERT_OUTPUT_OPTIONS),
		outputField([...ALERT_OUTPUT_OPTIONS, PERSON_CHANGE_OUTPUT_OPTION]),
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
	const { timeoutMs } = readRequestOptions(this);
	let sawNoAlerts = false;
	const results = await runForEachItem(this, 1, async (itemIndex) => {
		const limit = readLimit(this, itemIndex);
		const output = this.getNodeParameter('output', itemIndex) as AlertOutput;
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const filterOptions = readAlertFilterOptions(
			this.getNode(),
			options,
			this.getTimezone(),
			itemIndex,
		);
		const filter = await resolveAlertFilter.call(this, filterOptions, { itemIndex, timeoutMs });

		const listing = await listUnreadAlerts.call(this, { itemIndex, timeoutMs });
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
