import type { INodeProperties } from 'n8n-workflow';

import * as getInfo from './getInfo.operation';

export { getInfo };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['nif'], '@version': [{ _cnd: { gte: 3 } }] } },
		options: [
			{
				name: 'Get Info',
				value: 'getInfo',
				description:
					'Check a NIF and get what it says: company or person, legal form, province of registration',
				action: 'Get NIF info',
			},
		],
		default: 'getInfo',
	},
	...getInfo.description,
];
