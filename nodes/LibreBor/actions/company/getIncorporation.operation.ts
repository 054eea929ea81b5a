import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getCompanyByNif, getIncorporation } from '../../api/registry';
import { companyLookupFields } from '../../descriptions';
import { readRunSettings } from '../../parameters/runSettings';
import { readCompanyReference } from '../../parameters/identifierParameters';
import { validateCompanyNif } from '../../parameters/validation';
import { pairRecords, runForEachItem } from '../../run/itemRunner';
import type { ItemRequest } from '../../run/nodeRun';

const displayOptions = {
	show: {
		resource: ['company'],
		operation: ['getIncorporation'],
		'@version': [{ _cnd: { gte: 3 } }],
	},
};

export const description = updateDisplayOptions(
	displayOptions,
	companyLookupFields('get the incorporation of'),
);

/** LibreBOR finds an incorporation by the company's slug: a NIF is looked up first. */
async function slugOfCompany(this: IExecuteFunctions, nif: string, item: ItemRequest) {
	const companyNif = validateCompanyNif(this.getNode(), nif, item.itemIndex);
	const company = await getCompanyByNif.call(this, companyNif, item);
	if (typeof company.slug === 'string' && company.slug !== '') return company.slug;
	throw new NodeOperationError(this.getNode(), `LibreBOR gave no slug for the company ${nif}`, {
		itemIndex: item.itemIndex,
		description: 'Pick the company from the list by name, or enter its slug.',
	});
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runForEachItem(this, readRunSettings(this), async (item) => {
		const company = readCompanyReference(this, item.itemIndex);
		const slug =
			'slug' in company ? company.slug : await slugOfCompany.call(this, company.nif, item);
		return pairRecords(item.itemIndex, [await getIncorporation.call(this, slug, item)]);
	});
}
