import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import * as alert from './actions/alert';
import * as document from './actions/document';
import { searchUnreadAlerts, searchWatchedCompanies } from './methods';
import { router } from './actions/router';
import { toolDescriptionFields } from './actions/toolDescriptions';
import * as watchlist from './actions/watchlist';

export class LibreBor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'LibreBOR',
		name: 'libreBor',
		icon: { light: 'file:../../icons/librebor.svg', dark: 'file:../../icons/librebor.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
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
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Alert',
						value: 'alert',
						description: 'Unread alerts created when a watched company appears in the BORME',
					},
					{
						name: 'Document',
						value: 'document',
						description: "A company's annual accounts, ordered against the prepaid balance",
					},
					{
						name: 'Watch List',
						value: 'watchlist',
						description: 'The companies LibreBOR watches for you',
					},
				],
				default: 'alert',
			},
			...alert.description,
			...watchlist.description,
			...document.description,
		],
	};

	methods = {
		listSearch: { searchUnreadAlerts, searchWatchedCompanies },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
