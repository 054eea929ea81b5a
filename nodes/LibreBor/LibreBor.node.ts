import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import * as alert from './actions/alert';
import * as company from './actions/company';
import * as document from './actions/document';
import * as nif from './actions/nif';
import * as person from './actions/person';
import {
	searchRegistryCompanies,
	searchRegistryPeople,
	searchUnreadAlerts,
	searchWatchedCompanies,
} from './methods';
import { router } from './actions/router';
import { resourceFields } from './actions/resources';
import { toolDescriptionFields } from './actions/toolDescriptions';
import * as watchlist from './actions/watchlist';

export class LibreBor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'LibreBOR',
		name: 'libreBor',
		icon: { light: 'file:../../icons/librebor.svg', dark: 'file:../../icons/librebor.dark.svg' },
		group: ['transform'],
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Watch Spanish companies in the BORME commercial-registry bulletin, read their alerts and order their annual accounts',
		defaults: { name: 'LibreBOR' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'libreBorApi', required: true }],
		properties: [
			{
				displayName:
					'Alerts and documents are beta features of the LibreBOR API: they need an API subscription and a request to LibreBOR to enable them',
				name: 'betaNotice',
				type: 'notice',
				default: '',
			},
			...toolDescriptionFields,
			...resourceFields,
			...alert.description,
			...watchlist.description,
			...document.description,
			...company.description,
			...person.description,
			...nif.description,
		],
	};

	methods = {
		listSearch: {
			searchUnreadAlerts,
			searchWatchedCompanies,
			searchRegistryCompanies,
			searchRegistryPeople,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
