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
import { batchNotice, triggerProperties, upgradeNotice } from './trigger/description';
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
 * Versions 2 and 3: a trigger that schedules its own polls, so that what it emits goes out under a
 * deduplication key, which n8n stores with the execution and refuses a second time (docs/trigger.md).
 */
abstract class SelfScheduledTrigger {
	methods = { listSearch: { searchWatchedCompanies } };

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await startTrigger(this);
	}
}

/** Version 2 emits a poll's new alerts together, under the key of that batch. */
class LibreBorTriggerV2 extends SelfScheduledTrigger implements INodeType {
	description: INodeTypeDescription = {
		...TRIGGER_BASE,
		// n8n's lint rules read these three here.
		icon: TRIGGER_BASE.icon,
		group: ['trigger'],
		subtitle: TRIGGER_SUBTITLE,
		version: 2,
		...TRIGGER_DESCRIPTION_COMMON,
		properties: [batchNotice, pollTimesProperty, ...triggerProperties],
	};
}

/**
 * Version 3 emits each alert under its own key, which n8n refuses again whatever the trigger's
 * saved state says, also when an execution saved the static data it started with over a later one.
 */
class LibreBorTriggerV3 extends SelfScheduledTrigger implements INodeType {
	description: INodeTypeDescription = {
		...TRIGGER_BASE,
		// n8n's lint rules read these three here.
		icon: TRIGGER_BASE.icon,
		group: ['trigger'],
		subtitle: TRIGGER_SUBTITLE,
		version: 3,
		...TRIGGER_DESCRIPTION_COMMON,
		properties: [pollTimesProperty, ...triggerProperties],
	};
}

export class LibreBorTrigger extends VersionedNodeType {
	constructor() {
		super(
			{ 1: new LibreBorTriggerV1(), 2: new LibreBorTriggerV2(), 3: new LibreBorTriggerV3() },
			{ ...TRIGGER_BASE, defaultVersion: 3 },
		);
	}
}
