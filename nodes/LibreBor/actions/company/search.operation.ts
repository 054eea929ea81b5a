import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { searchCompanies } from '../../api/registry';
import { optionsCollection, pacedRequestOptions, searchFields } from '../../descriptions';
import { executeSearch } from '../registrySearch';

const displayOptions = {
	show: { resource: ['company'], operation: ['search'], '@version': [{ _cnd: { gte: 3 } }] },
};

const properties: INodeProperties[] = [
	...searchFields('companies'),
	optionsCollection([
		{
			displayName: 'Province',
			name: 'province',
			type: 'string',
			default: '',
			placeholder: 'e.g. Madrid',
			description:
				'Only companies registered in this province, by its name as LibreBOR shows it (Madrid, Barcelona, Valencia…)',
		},
		...pacedRequestOptions,
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeSearch.call(
		this,
		(query, itemIndex) => {
			const province = String(
				this.getNodeParameter('options.province', itemIndex, '') ?? '',
			).trim();
			return async function (item, page) {
				return await searchCompanies.call(this, { query, province }, page, item);
			};
		},
		'Add words of the name, or a Province, to narrow it.',
	);
}
