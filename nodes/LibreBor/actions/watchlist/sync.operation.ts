import {
	NodeApiError,
	NodeOperationError,
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { listWatchedEntities } from '../../api/watchlist';
import { endNodeRun, startNodeRun, type NodeRun } from '../../run/nodeRun';
import {
	nifField,
	withCompanyLocator,
	optionsCollection,
	pacedRequestOptions,
} from '../../descriptions';
import { readRunSettings } from '../../parameters/runSettings';
import { applySyncSteps } from './syncApply';
import { failEveryItem, syncHints, syncItems } from './syncOutput';
import {
	planSync,
	readSyncInput,
	readSyncSettings,
	tooManyUnfollowsError,
	unfollowCount,
	type SyncInput,
	type SyncSettings,
} from './syncPlan';

// Version 2 only: a version 1 node offers no Sync.
const displayOptions = {
	show: { resource: ['watchlist'], operation: ['sync'], '@version': [{ _cnd: { gte: 2 } }] },
};

const properties: INodeProperties[] = [
	...withCompanyLocator(
		[
			{
				...nifField(
					'keep on the watch list, one per input item: together, the input items are the list the watch list is made to hold',
				),
				placeholder: 'e.g. {{ $json.nif }}',
			},
		],
		'keep on the watch list, one per input item: together, the input items are the list the watch list is made to hold',
	),
	{
		displayName: 'Unfollow Others',
		name: 'unfollowOthers',
		type: 'boolean',
		default: false,
		description:
			'Whether to also unfollow the watched companies that no input item names. Off, Sync only follows the companies that are missing.',
	},
	optionsCollection([
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description:
				'Whether to only report what Sync would do, changing nothing: the output is the same, with "applied" false on every item',
		},
		{
			displayName: 'Max Unfollows',
			name: 'maxUnfollows',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 10,
			description:
				'The most companies one run may unfollow. When the input would unfollow more (an empty or cut-short sheet, say), Sync changes nothing and fails, saying how many.',
		},
		...pacedRequestOptions,
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Makes the watch list hold the NIFs of the input items: every NIF is checked and the plan is
 * made before anything changes; then the follows and unfollows go out through the run's pacer.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	if (this.getNode().typeVersion < 2) {
		throw new NodeOperationError(this.getNode(), 'Sync needs version 2 of the LibreBOR node', {
			description:
				'This node is version 1, which has no Sync. Add a new LibreBOR node (version 2) and choose Watch List > Sync. Nothing was sent.',
		});
	}
	const runSettings = readRunSettings(this);
	const settings = readSyncSettings(this);
	const run = startNodeRun(this, runSettings);
	try {
		const input = await readSyncInput(this, run);
		return await syncWith.call(this, run, settings, input);
	} finally {
		endNodeRun(run);
	}
}

async function syncWith(
	this: IExecuteFunctions,
	run: NodeRun,
	settings: SyncSettings,
	input: SyncInput,
): Promise<INodeExecutionData[]> {
	let watched;
	try {
		watched = await listWatchedEntities.call(this, { run });
	} catch (error) {
		if (error instanceof NodeApiError || error instanceof NodeOperationError)
			return failEveryItem(this, error);
		throw new NodeOperationError(this.getNode(), error as Error);
	}
	const plan = planSync(input, watched, settings.unfollowOthers);
	const overMaxUnfollows = unfollowCount(plan.steps) > settings.maxUnfollows;
	if (overMaxUnfollows && !settings.dryRun)
		return failEveryItem(this, tooManyUnfollowsError(this.getNode(), plan, settings.maxUnfollows));
	const outcomes = settings.dryRun ? new Map() : await applySyncSteps.call(this, plan.steps, run);
	for (const message of syncHints(input, plan, settings, overMaxUnfollows))
		this.addExecutionHints({ message, type: 'info', location: 'outputPane' });
	return syncItems(this, input, plan, outcomes);
}
