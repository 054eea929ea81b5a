import type { INodeProperties } from 'n8n-workflow';

import { UUID_REGEX } from '../identifiers/uuid';
import { beforeVersion3, byVersion, fromVersion3 } from './byVersion';
import { companyLocator } from './registryFields';

const alertLocator: INodeProperties = {
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

export const alertIdFields = byVersion(
	{
		displayName: 'Alert ID',
		name: 'alertId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3f1c2b9e-8d4a-4c6b-9f0e-2a7d5c1b8e34',
		description:
			'The ID (a UUID) of the alert to mark as read, as given by Get Many or the trigger',
	},
	alertLocator,
);

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

/** The company's NIF, checked before anything is sent (or spent). */
export const nifField = (purpose: string): INodeProperties => ({
	displayName: 'NIF',
	name: 'nif',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. B64717838',
	description: `Spanish tax identifier (NIF/CIF) of the company to ${purpose}. Spaces, dashes and an ES prefix are removed; the check character is verified before anything is sent.`,
});

/**
 * The company of Follow, Unfollow, Sync and Order: what versions 1 and 2 had, and from version 3
 * the `company` picked by name in the registry, or given by NIF or slug.
 */
export const withCompanyLocator = (
	untilVersion3: INodeProperties[],
	purpose: string,
): INodeProperties[] => [
	...beforeVersion3(untilVersion3),
	...fromVersion3([companyLocator(purpose)]),
];

/**
 * The NIF as a plain string in version 1, a company picked from the watch list or typed in
 * version 2, a company of the registry in version 3.
 */
export const companyFields = (purpose: string): INodeProperties[] =>
	withCompanyLocator(
		byVersion(nifField(purpose), {
			...watchedCompanyLocator,
			required: true,
			description: `The company to ${purpose}: pick one of the watched companies, or enter its NIF (spaces, dashes and an ES prefix are removed; the check character is verified before anything is sent)`,
		}),
		purpose,
	);

const documentLocator: INodeProperties = {
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

export const documentIdFields = byVersion(
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.document_id }}',
		description: 'The "document_id" returned by the Order operation',
	},
	documentLocator,
);
