import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { beforeVersion3, fromVersion3 } from '../descriptions';

const alertOption: INodePropertyOptions = {
	name: 'Alert',
	value: 'alert',
	description: 'Unread alerts created when a watched company appears in the BORME',
};
const documentOption: INodePropertyOptions = {
	name: 'Document',
	value: 'document',
	description: "A company's annual accounts, ordered against the prepaid balance",
};
const watchlistOption: INodePropertyOptions = {
	name: 'Watch List',
	value: 'watchlist',
	description: 'The companies LibreBOR watches for you',
};

const resourceField = (options: INodePropertyOptions[]): INodeProperties => ({
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options,
	default: 'alert',
});

/** The Resource field: version 3 adds the registry look-ups (companies, people, NIFs). */
export const resourceFields: INodeProperties[] = [
	...beforeVersion3([resourceField([alertOption, documentOption, watchlistOption])]),
	...fromVersion3([
		resourceField([
			alertOption,
			{
				name: 'Company',
				value: 'company',
				description: 'Companies of the commercial registry: search by name, get by NIF or slug',
			},
			documentOption,
			{ name: 'NIF', value: 'nif', description: 'Spanish tax identifiers: check one' },
			{
				name: 'Person',
				value: 'person',
				description: 'People of the commercial registry and their posts in companies',
			},
			watchlistOption,
		]),
	]),
];
