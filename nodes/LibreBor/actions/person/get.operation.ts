import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getPersonBySlug } from '../../api/registry';
import { optionsCollection, pacedRequestOptions, personLocator } from '../../descriptions';
import { readRunSettings } from '../../parameters/runSettings';
import { readPersonSlug } from '../../parameters/identifierParameters';
import { readToggleParameter } from '../../parameters/toggleOption';
import { pairRecords, runForEachItem } from '../../run/itemRunner';
import { withCompanyStatus } from './companyStatus';

const displayOptions = {
	show: { resource: ['person'], operation: ['get'], '@version': [{ _cnd: { gte: 3 } }] },
};

const properties: INodeProperties[] = [
	personLocator,
	optionsCollection([
		{
			displayName: 'Company Status',
			name: 'companyStatus',
			type: 'boolean',
			default: false,
			description:
				'Whether to add to each of the person\'s posts the "company_status" of its company (active, dissolved…): one more request per company',
		},
		...pacedRequestOptions,
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runForEachItem(this, readRunSettings(this), async (item) => {
		const { itemIndex } = item;
		const slug = readPersonSlug(this, itemIndex);
		const companyStatus = readToggleParameter(
			this,
			'options.companyStatus',
			{ label: 'Company Status', fallback: false, consequence: 'Nothing was read.' },
			itemIndex,
		);
		const person = await getPersonBySlug.call(this, slug, item);
		const record = companyStatus ? await withCompanyStatus.call(this, person, item) : person;
		return pairRecords(itemIndex, [record]);
	});
}
