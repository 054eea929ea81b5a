import type { INodeProperties } from 'n8n-workflow';

/** What each output item holds, the same in Alert > Get Many and in the trigger. */
export const alertOutputField: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{
			name: 'One Item per Alert',
			value: 'alert',
			description: 'Each alert as LibreBOR returns it, with its bulletin entries in "data"',
		},
		{
			name: 'One Item per Bulletin Entry',
			value: 'entry',
			description:
				'Each bulletin entry of each alert as a flat item with the alert fields alongside, ready for a sheet or a message',
		},
	],
	default: 'alert',
};
