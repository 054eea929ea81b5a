import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getCompanyByNif, getCompanyBySlug } from '../../api/registry';
import { companyLookupFields } from '../../descriptions';
import { readRunSettings } from '../../parameters/runSettings';
import { readCompanyReference } from '../../parameters/identifierParameters';
import { validateCompanyNif } from '../../parameters/validation';
import { pairRecords, runForEachItem } from '../../run/itemRunner';

const displayOptions = {
	show: { resource: ['company'], operation: ['get'], '@version': [{ _cnd: { gte: 3 } }] },
};

export const description = updateDisplayOptions(displayOptions, companyLookupFields('get'));

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runForEachItem(this, readRunSettings(this), async (item) => {
		const company = readCompanyReference(this, item.itemIndex);
		if ('slug' in company)
			return pairRecords(item.itemIndex, [await getCompanyBySlug.call(this, company.slug, item)]);
		const nif = validateCompanyNif(this.getNode(), company.nif, item.itemIndex);
		return pairRecords(item.itemIndex, [await getCompanyByNif.call(this, nif, item)]);
	});
}
