import type { INodeProperties } from 'n8n-workflow';

import { alertFilterFields } from '../actions/alertFilterFields';
import { timeoutOption } from '../actions/commonOptions';

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
		displayName:
			"Mark as Read is off: the alerts this trigger emits stay unread in LibreBOR's panel, and LibreBOR keeps listing them. Turn it on in Options to mark each emitted alert as read.",
		name: 'markAsReadNotice',
		type: 'notice',
		default: '',
		displayOptions: { hide: { '/options.markAsRead': [true] } },
	},
	{
		displayName:
			'Filters apply once: an alert that a filter leaves out is remembered as seen and is not emitted later, even if the filter changes.',
		name: 'filterNotice',
		type: 'notice',
		default: '',
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
			...alertFilterFields('Other Act Labels'),
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
