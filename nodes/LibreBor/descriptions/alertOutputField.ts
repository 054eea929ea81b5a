import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The Output choices of alert Get Many and the trigger, by the names both show. */
export const ALERT_OUTPUT_OPTIONS: INodePropertyOptions[] = [
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
];

/** Since version 2 of the action node, and in the trigger. */
export const PERSON_CHANGE_OUTPUT_OPTION: INodePropertyOptions = {
	name: 'One Item per Person Change',
	value: 'position',
	description:
		'Each person an entry appoints, re-elects or removes, as a flat item with "change" (appointed, reelected, removed, other) and the entry and alert fields alongside, ready to screen',
};

/** What each output item holds, in Alert > Get Many and in the trigger, with these choices. */
export const alertOutputField = (options: INodePropertyOptions[]): INodeProperties => ({
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options,
	default: 'alert',
});
