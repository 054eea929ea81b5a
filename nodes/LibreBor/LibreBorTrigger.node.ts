import {
	VersionedNodeType,
	type INodeExecutionData,
	type INodeTypeBaseDescription,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
	type ITriggerFunctions,
	type ITriggerResponse,
} from 'n8n-workflow';

import { searchWatchedCompanies } from './methods';
import { triggerProperties, upgradeNotice } from './trigger/description';
import { TRIGGER_DESCRIPTION_COMMON, TRIGGER_SUBTITLE } from './trigger/nodeDescription';
import { pollV1 } from './trigger/pollV1';
import { pollTimesProperty } from './trigger/pollSchedule';
import { startTrigger } from './trigger/startTrigger';

/** The names, icon and description of the trigger, whatever its version. */
const TRIGGER_BASE = {
	displayName: 'LibreBOR Trigger',
	name: 'libreBorTrigger',
	icon: { light: 'file:../../icons/librebor.svg', dark: 'file:../../icons/librebor.dark.svg' },
	group: ['trigger'],
	description:
		'Starts the workflow when a company on your LibreBOR watch list appears in the BORME',
} satisfies INodeTypeBaseDescription;

/**
 * Version 1: a polling node. n8n saves its state before it creates the execution of what it
 * emits, so after a restart it may emit the last emission again (docs/trigger.md).
 */
class LibreBorTriggerV1 implements INodeType {
	description: INodeTypeDescription = {
		...TRIGGER_BASE,
		// n8n's lint rules read these three here.
		icon: TRIGGER_BASE.icon,
		group: ['trigger'],
		subtitle: TRIGGER_SUBTITLE,
		version: 1,
		...TRIGGER_DESCRIPTION_COMMON,
		polling: true,
		properties: [upgradeNotice, ...triggerProperties],
	};

	methods = { listSearch: { searchWatchedCompanies } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollV1(this);
	}
}

/**
 * Version 2: a trigger that schedules its own polls, so that each batch of alerts can go out under
 * a deduplication key, which n8n stores with the execution and refuses a second time: each alert
 * starts one execution, also when n8n restarts at any moment (docs/trigger.md).
 */
class LibreBorTriggerV2 implements INodeType {
	description: INodeTypeDescription = {
		...TRIGGER_BASE,
		// n8n's lint rules read these three here.
		icon: TRIGGER_BASE.icon,
		group: ['trigger'],
		subtitle: TRIGGER_SUBTITLE,
		version: 2,
		...TRIGGER_DESCRIPTION_COMMON,
		properties: [pollTimesProperty, ...triggerProperties],
	};

	methods = { listSearch: { searchWatchedCompanies } };

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await startTrigger(this);
	}
}

export class LibreBorTrigger extends VersionedNodeType {
	constructor() {
		super(
			{ 1: new LibreBorTriggerV1(), 2: new LibreBorTriggerV2() },
			{ ...TRIGGER_BASE, defaultVersion: 2 },
		);
	}
}
