import type { INodeProperties } from 'n8n-workflow';

import { timeoutOption } from '../actions/commonOptions';

const COMMON_LABELS =
	'Nombramientos, Reelecciones, Revocaciones, Ceses/Dimisiones, Constitución, Modificaciones estatutarias, Cambio de objeto social, Cambio de denominación social, Cambio de domicilio social, Ampliación de capital, Reducción de capital, Disolución, Extinción, Situación concursal, Fusión por absorción, Declaración de unipersonalidad, Modificación de poderes, Otros conceptos';

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'LibreBOR alerts are a beta feature: they need an API subscription and a request to LibreBOR to enable them. The trigger fires for the companies on your watch list; follow one with the LibreBOR node (Watch List > Follow).',
		name: 'betaNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'Alert',
				value: 'alert',
				description: 'One item per alert, as LibreBOR returns it',
			},
			{
				name: 'Entry',
				value: 'entry',
				description:
					'One item per bulletin entry of an alert, with the alert ID, creation time and entity alongside',
			},
		],
		default: 'alert',
		description: 'What each output item holds',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Include Existing Alerts',
				name: 'includeExisting',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll after activation also emits the alerts that are already unread. When off, only alerts that arrive after activation are emitted.',
			},
			{
				displayName: 'Labels',
				name: 'labels',
				type: 'string',
				default: '',
				placeholder: 'Nombramientos, Revocaciones, Ceses/Dimisiones',
				description: `Comma-separated BORME act labels; an alert passes when one of its entries has one of them (accents and case do not matter). Leave empty for every label. Common labels: ${COMMON_LABELS}. Labels not in this list are accepted too.`,
			},
			{
				displayName: 'Mark as Read',
				name: 'markAsRead',
				type: 'boolean',
				default: false,
				description:
					'Whether to mark each emitted alert as read in LibreBOR, one by one, at the next poll. LibreBOR lists only the latest unread alerts, so marking them lets older ones come through.',
			},
			timeoutOption,
		],
	},
];
