import type { INodeProperties } from 'n8n-workflow';

import { watchedCompanyLocator } from './identifierFields';

/** BORME act labels known from the bulletin parser; LibreBOR may send others, hence the free-text field. */
const KNOWN_ACT_LABELS = [
	'Nombramientos',
	'Reelecciones',
	'Revocaciones',
	'Ceses/Dimisiones',
	'Constitución',
	'Modificaciones estatutarias',
	'Cambio de objeto social',
	'Cambio de denominación social',
	'Cambio de domicilio social',
	'Ampliacion del objeto social',
	'Ampliación de capital',
	'Reducción de capital',
	'Disolución',
	'Extinción',
	'Situación concursal',
	'Fusión por absorción',
	'Escisión parcial',
	'Transformación de sociedad',
	'Declaración de unipersonalidad',
	'Sociedad unipersonal',
	'Modificación de poderes',
	'Otros conceptos',
	'Cancelaciones de oficio de nombramientos',
	'Emisión de obligaciones',
	'Página web de la sociedad',
];

const knownLabelsField: INodeProperties = {
	displayName: 'Act Labels',
	name: 'actLabels',
	type: 'multiOptions',
	options: [...KNOWN_ACT_LABELS]
		.sort((a, b) => a.localeCompare(b, 'es'))
		.map((label) => ({ name: label, value: label })),
	default: [],
	description:
		'BORME act labels to keep; an alert is kept when one of its entries has one of them. Labels not in this list go in Other Act Labels.',
};

const categoriesField: INodeProperties = {
	displayName: 'Categories',
	name: 'categories',
	type: 'multiOptions',
	options: [
		{
			name: 'Capital',
			value: 'capital',
			description: 'Capital increased or reduced, unpaid capital called, bonds issued',
		},
		{
			name: 'Distress',
			value: 'distress',
			description:
				'Insolvency, suspension of payments, dissolution, extinction, bad debts, provisional closure of the registry sheet (and its reopening)',
		},
		{
			name: 'Identity',
			value: 'identity',
			description: 'Name, registered address, corporate purpose, statutes or web site changed',
		},
		{
			name: 'Officers',
			value: 'officers',
			description:
				'Directors and other officers appointed, re-elected or removed; powers of attorney changed',
		},
		{
			name: 'Other',
			value: 'other',
			description: 'Every other act, and any label the node does not know',
		},
		{
			name: 'Ownership',
			value: 'ownership',
			description:
				'Sole-shareholder acts: the company becomes or stops being single-member, or its sole shareholder changes',
		},
		{
			name: 'Restructuring',
			value: 'restructuring',
			description:
				'Incorporation, mergers, demergers, conversions, transfers of all assets and liabilities, branches',
		},
	],
	default: [],
	description:
		'Kinds of BORME act to keep, whatever their label (see the "category" of each entry). An entry is kept when its label is among the Act Labels or its category among these; with neither set, every entry is kept.',
};

const otherLabelsField: INodeProperties = {
	displayName: 'Other Act Labels',
	name: 'labels',
	type: 'string',
	default: '',
	placeholder: 'Nombramientos, Revocaciones, Ceses/Dimisiones',
	description:
		'Comma-separated BORME act labels to keep, any label accepted (case and accents ignored), together with those picked in Act Labels. An alert is kept when one of its entries matches. Empty keeps every label.',
};

const companyFilterField: INodeProperties = {
	...watchedCompanyLocator,
	name: 'company',
	description: 'Keep only the alerts about this company (one of your watched companies)',
};

const createdAfterField: INodeProperties = {
	displayName: 'Created After',
	name: 'createdAfter',
	type: 'dateTime',
	default: '',
	description: 'Keep only the alerts LibreBOR created at or after this time',
};

/** The alert filters of Get Many in version 1 of the node. */
export const alertFilterFields = [
	knownLabelsField,
	companyFilterField,
	createdAfterField,
	otherLabelsField,
];

/** The alert filters of Get Many in version 2 and of the trigger: the act categories as well. */
export const alertFilterFieldsWithCategories = [
	knownLabelsField,
	categoriesField,
	companyFilterField,
	createdAfterField,
	otherLabelsField,
];
