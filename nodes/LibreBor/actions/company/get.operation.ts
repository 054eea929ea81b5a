import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getCompanyByNif, getCompanyBySlug } from '../../api/registry';
import {
	companyLocator,
	optionsCollection,
	pacedRequestOptions,
	readRunSettings,
} from '../../descriptions';
import { readCompanyReference } from '../../helpers/identifierParameters';
import { pairRecords, runForEachItem } from '../../helpers/itemRunner';

const displayOptions = {
	show: { resource: ['company'], operation: ['get'], '@version': [{ _cnd: { gte: 3 } }] },
};

const properties: INodeProperties[] = [
	companyLocator('get'),
	optionsCollection(pacedRequestOptions),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runForEachItem(this, readRunSettings(this), async (item) => {
		const company = readCompanyReference(this, item.itemIndex);
		const record =
			'nif' in company
				? await getCompanyByNif.call(this, company.nif, item)
				: await getCompanyBySlug.call(this, company.slug, item);
		return pairRecords(item.itemIndex, [record]);
	});
}
