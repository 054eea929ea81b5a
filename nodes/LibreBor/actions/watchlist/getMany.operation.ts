import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listWatchedEntities } from '../../api/watchlist';
import { pairRecords, runForEachItem } from '../../run/itemRunner';
import {
	fromVersion3,
	optionsCollection,
	pacedRequestOptions,
	returnAllFields,
	timeoutOption,
} from '../../descriptions';
import { readLimit } from '../../parameters/listLimit';
import { readOneItemAtATimeSettings, readRunSettings } from '../../parameters/runSettings';
import { readToggleParameter } from '../../parameters/toggleOption';
import { withCompanyDetails } from './companyDetails';

const displayOptions = { show: { resource: ['watchlist'], operation: ['getMany'] } };

const companyDetailsOption: INodeProperties = {
	displayName: 'Company Details',
	name: 'companyDetails',
	type: 'boolean',
	default: false,
	description:
		'Whether to add to each watched company its "status" (active, dissolved…) and "province" from the registry: one more request per company',
};

// Version 3 adds Company Details, and Parallel Requests and Time Budget for its look-ups.
const properties: INodeProperties[] = [
	...returnAllFields,
	optionsCollection([
		...fromVersion3([
			companyDetailsOption,
			...pacedRequestOptions.filter((option) => option !== timeoutOption),
		]),
		timeoutOption,
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const version3 = this.getNode().typeVersion >= 3;
	const settings = version3 ? readRunSettings(this) : readOneItemAtATimeSettings(this);
	return await runForEachItem(this, settings, async (item) => {
		const limit = readLimit(this, item.itemIndex);
		const details = readToggleParameter(
			this,
			'options.companyDetails',
			{ label: 'Company Details', fallback: false, consequence: 'Nothing was read.' },
			item.itemIndex,
		);
		const entities = (await listWatchedEntities.call(this, item)).slice(0, limit);
		const records = details ? await withCompanyDetails.call(this, entities, item) : entities;
		return pairRecords(item.itemIndex, records);
	});
}
