import type { INodeProperties } from 'n8n-workflow';

import {
	ALERT_OUTPUT_OPTIONS,
	alertFilterFieldsWithCategories,
	alertOutputField,
	PERSON_CHANGE_OUTPUT_OPTION,
	timeoutOption,
} from '../descriptions';

const BETA =
	'LibreBOR alerts are a beta feature: they need an API subscription and a request to LibreBOR to enable them. The trigger fires for the companies on your watch list; follow one with the LibreBOR node (Watch List > Follow).';

// One notice at a time: the beta notice, and with Mark as Read off (the default) what that means.
export const triggerProperties: INodeProperties[] = [
	{
		displayName: BETA,
		name: 'betaNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '/options.markAsRead': [true] } },
	},
	{
		displayName: `${BETA} Mark as Read is off: the alerts this trigger emits stay unread in LibreBOR's panel, and LibreBOR keeps listing them. Turn it on in Options to mark each emitted alert as read.`,
		name: 'markAsReadNotice',
		type: 'notice',
		default: '',
		displayOptions: { hide: { '/options.markAsRead': [true] } },
	},
	{
		// The same choices as the Output of the LibreBOR node's Get Many.
		...alertOutputField([...ALERT_OUTPUT_OPTIONS, PERSON_CHANGE_OUTPUT_OPTION]),
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
			...alertFilterFieldsWithCategories.map((field) => ({
				...field,
				description: `${field.description} Filters apply once: an alert this filter leaves out is remembered as seen and is not emitted later, even if the filter changes.`,
			})),
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

/** Version 1's pointer to version 2. */
/** Version 2 starts one execution per poll, which a rolled-back saved state can repeat (docs/trigger.md). */
export const batchNotice: INodeProperties = {
	displayName:
		'This version starts one execution per poll. A newer version starts one per alert, which stays exactly once also when another execution of the workflow saves older static data: add a new LibreBOR Trigger to use it',
	name: 'batchNotice',
	type: 'notice',
	default: '',
};

export const upgradeNotice: INodeProperties = {
	displayName:
		'A newer version of this trigger emits each alert exactly once, also across n8n restarts: add a new LibreBOR Trigger to use it',
	name: 'upgradeNotice',
	type: 'notice',
	default: '',
};
