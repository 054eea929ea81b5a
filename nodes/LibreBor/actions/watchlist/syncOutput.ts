import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPairedItemData,
} from 'n8n-workflow';

import { errorItem } from '../../run/itemRunner';
import type { NodeError } from '../../run/nodeErrors';
import type { SyncOutcome } from './syncApply';
import type { SyncInput, SyncPlan, SyncSettings, SyncStep } from './syncPlan';

type Paired = IPairedItemData | IPairedItemData[];

function stepItem(step: SyncStep, outcome: SyncOutcome | undefined, pairedItem: Paired) {
	if (outcome && 'error' in outcome) return errorItem(outcome.error, pairedItem);
	const json: IDataObject = {
		nif: step.nif,
		name: step.name,
		action: step.action,
		applied: !!outcome && 'applied' in outcome && outcome.applied,
	};
	return { json, pairedItem };
}

/**
 * One item per NIF named or unfollowed, in input order and then the unfollows: a named NIF's
 * item is paired with the first input item naming it, an invalid NIF's error item with its own,
 * and an unfollowed company (no item names it) with every input item, as n8n's aggregating nodes do.
 */
export function syncItems(
	context: IExecuteFunctions,
	input: SyncInput,
	plan: SyncPlan,
	outcomes: Map<SyncStep, SyncOutcome>,
): INodeExecutionData[] {
	const itemCount = context.getInputData().length;
	const stepOfItem = new Map(plan.steps.map((step) => [step.itemIndex, step]));
	const items: INodeExecutionData[] = [];
	for (let item = 0; item < itemCount; item++) {
		const invalid = input.invalid.get(item);
		const step = stepOfItem.get(item);
		if (invalid) items.push(errorItem(invalid, { item }));
		else if (step) items.push(stepItem(step, outcomes.get(step), { item }));
	}
	const everyItem = Array.from({ length: itemCount }, (_, item) => ({ item }));
	for (const step of plan.steps.filter((unfollow) => unfollow.itemIndex === undefined))
		items.push(stepItem(step, outcomes.get(step), everyItem));
	return items;
}

/** A refusal of the whole run: each input item's error item with Continue On Fail, else thrown. */
export function failEveryItem(context: IExecuteFunctions, error: NodeError): INodeExecutionData[] {
	if (!context.continueOnFail()) throw error;
	return context.getInputData().map((_, item) => errorItem(error, { item }));
}

/** What the output pane says besides the items: a dry run's summary, unfollows held back. */
export function syncHints(
	input: SyncInput,
	plan: SyncPlan,
	settings: SyncSettings,
	overMaxUnfollows: boolean,
): string[] {
	const hints: string[] = [];
	if (plan.unfollowsHeldBack > 0) {
		const why =
			input.invalid.size > 0
				? `${input.invalid.size} input item(s) have no valid NIF (their error items say why), so the input may not be the whole list`
				: 'no input item names a NIF';
		hints.push(
			`Unfollow Others unfollowed none of the ${plan.unfollowsHeldBack} watched companies the input leaves out: ${why}. Fix the input and run Sync again.`,
		);
	}
	if (settings.dryRun) {
		const count = (action: string) => plan.steps.filter((step) => step.action === action).length;
		const refused = overMaxUnfollows
			? ` A real run would be refused: it would unfollow more than Max Unfollows (${settings.maxUnfollows}).`
			: '';
		hints.push(
			`Dry Run: nothing was changed. Without it, Sync would follow ${count('follow')}, keep ${count('keep')} and unfollow ${count('unfollow')} companies.${refused}`,
		);
	}
	return hints;
}
