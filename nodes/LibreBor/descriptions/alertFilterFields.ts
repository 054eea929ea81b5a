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

/** The alert filters of Get Many and the trigger. */
export const alertFilterFields = [
	knownLabelsField,
	companyFilterField,
	createdAfterField,
	otherLabelsField,
];
