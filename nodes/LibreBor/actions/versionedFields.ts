import type { INodeProperties } from 'n8n-workflow';

import { UUID_REGEX } from '../helpers/validation';

type ShowFor = { resource: string[]; operation?: string[] };

/**
 * One parameter, two definitions: version 1 of the node keeps what its saved workflows rely on
 * (plain-string identifiers, and its defaults: n8n leaves a parameter at its default out of the saved
 * workflow, so changing a default would change those workflows); version 2 has the resource locators
 * and the safer defaults. Same name, so the value is read the same way in both.
 */
export function byVersion(
	showFor: ShowFor,
	version1: INodeProperties,
	version2: INodeProperties,
): INodeProperties[] {
	return [
		{ ...version1, displayOptions: { show: { ...showFor, '@version': [1] } } },
		{ ...version2, displayOptions: { show: { ...showFor, '@version': [{ _cnd: { gte: 2 } }] } } },
	];
}

export const alertLocator: INodeProperties = {
	displayName: 'Alert',
	name: 'alertId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The unread alert to mark as read',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an unread alert...',
			typeOptions: {
				searchListMethod: 'searchUnreadAlerts',
				searchable: true,
				searchFilterRequired: false,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 3f1c2b9e-8d4a-4c6b-9f0e-2a7d5c1b8e34',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: UUID_REGEX,
						errorMessage: 'An alert ID is a UUID, such as 3f1c2b9e-8d4a-4c6b-9f0e-2a7d5c1b8e34',
					},
				},
			],
		},
	],
};

/** A company picked from the watch list, or typed as a NIF; callers set its name and description. */
export const watchedCompanyLocator: INodeProperties = {
	displayName: 'Company',
	name: 'nif',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a watched company...',
			typeOptions: {
				searchListMethod: 'searchWatchedCompanies',
				searchable: true,
				searchFilterRequired: false,
			},
		},
		{ displayName: 'By NIF', name: 'id', type: 'string', placeholder: 'e.g. B64717838' },
	],
};

export function companyLocator(purpose: string): INodeProperties {
	return {
		...watchedCompanyLocator,
		required: true,
		description: `The company to ${purpose}: pick one of the watched companies, or enter its NIF (spaces, dashes and an ES prefix are removed; the check character is verified before anything is sent)`,
	};
}

export const documentLocator: INodeProperties = {
	displayName: 'Document',
	name: 'documentId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'id', value: '' },
	description: 'The document ordered with the Order operation',
	modes: [
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. {{ $json.document_id }}',
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://api.librebor.me/v2/documents/doc_123/',
		},
	],
};
