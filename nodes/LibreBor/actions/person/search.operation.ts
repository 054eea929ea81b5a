import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { searchPeople } from '../../api/registry';
import { optionsCollection, pacedRequestOptions, searchFields } from '../../descriptions';
import { executeSearch } from '../registrySearch';

const displayOptions = {
	show: { resource: ['person'], operation: ['search'], '@version': [{ _cnd: { gte: 3 } }] },
};

const properties: INodeProperties[] = [
	...searchFields('people'),
	optionsCollection(pacedRequestOptions),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeSearch.call(
		this,
		(query) =>
			async function (item, page) {
				return await searchPeople.call(this, { query }, page, item);
			},
		'Add words of the name to narrow it.',
	);
}
