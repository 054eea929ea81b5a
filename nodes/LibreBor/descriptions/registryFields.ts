import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { returnAllOffFields } from './listFields';
import { optionsCollection, pacedRequestOptions } from './requestOptions';

const LIST_MODE = { name: 'list', type: 'list' } as const;

/** A resource locator's mode that picks from a search of the registry by name. */
const fromRegistrySearch = (searchListMethod: string): INodePropertyMode => ({
	displayName: 'From List',
	...LIST_MODE,
	placeholder: 'Search the registry by name...',
	typeOptions: { searchListMethod, searchable: true, searchFilterRequired: true },
});

/** Companies of the registry: picked by name from a search, or given by NIF or slug. */
export const companyLocator = (purpose: string): INodeProperties => ({
	displayName: 'Company',
	name: 'company',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: `The company to ${purpose}: search LibreBOR's registry by name, or enter its NIF (checked before anything is sent) or its slug`,
	builderHint: {
		propertyHint:
			'Use mode "nif" with a Spanish NIF such as B64717838, or mode "slug" with a company slug (a search result\'s "slug", an alert\'s "entity_slug"); mode "list" takes a slug picked by name in the editor',
	},
	modes: [
		fromRegistrySearch('searchRegistryCompanies'),
		{ displayName: 'By NIF', name: 'nif', type: 'string', placeholder: 'e.g. B64717838' },
		{
			displayName: 'By Slug',
			name: 'slug',
			type: 'string',
			placeholder: 'e.g. brisas-del-llobregat',
		},
	],
});

export const personLocator: INodeProperties = {
	displayName: 'Person',
	name: 'person',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: "The person to get: search LibreBOR's registry by name, or enter their slug",
	builderHint: {
		propertyHint:
			'Use mode "slug" with a person slug, such as an alert position\'s "slug_person" ({{ $json.slug_person }}) or a person search result\'s "slug"',
	},
	modes: [
		fromRegistrySearch('searchRegistryPeople'),
		{
			displayName: 'By Slug',
			name: 'slug',
			type: 'string',
			placeholder: 'e.g. {{ $json.slug_person }}',
		},
	],
};

/** The words of the name a registry search looks for. */
const queryField = (of: 'companies' | 'people'): INodeProperties => ({
	displayName: 'Query',
	name: 'query',
	type: 'string',
	required: true,
	default: '',
	placeholder: of === 'companies' ? 'e.g. brisas llobregat' : 'e.g. garcia lopez maria',
	description: `Words of the ${of === 'companies' ? "company's" : "person's"} name; LibreBOR finds those whose name has them all. It lists at most 200 results: add words to narrow the search.`,
});

/** Query, Return All and Limit of a registry search. */
export const searchFields = (of: 'companies' | 'people'): INodeProperties[] => [
	queryField(of),
	...returnAllOffFields,
];

/** The fields of an operation that looks one company up, for `purpose`. */
export const companyLookupFields = (purpose: string): INodeProperties[] => [
	companyLocator(purpose),
	optionsCollection(pacedRequestOptions),
];
