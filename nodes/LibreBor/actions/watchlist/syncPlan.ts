import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
} from 'n8n-workflow';

import type { NodeRun } from '../../run/nodeRun';
import { nifKey } from '../../identifiers/nif';
import { readNumericOption } from '../../parameters/numericOption';
import { readToggleParameter } from '../../parameters/toggleOption';
import { readItemNifs, type ItemError } from '../companyNif';

export type SyncAction = 'follow' | 'unfollow' | 'keep';

/** One company Sync names in its output, and what it does about it. */
export interface SyncStep {
	nif: string;
	/** The company's name on the watch list; null for one not followed yet. */
	name: string | null;
	action: SyncAction;
	/** The first input item that names the NIF; none for a company no item names (an unfollow). */
	itemIndex?: number;
}

export interface SyncInput {
	/** Each company named, by its first valid NIF (normalised), with the first input item that names it, in input order. */
	named: Map<string, number>;
	/** The items whose NIF is not valid or not known, with the error that says why (Continue On Fail only). */
	invalid: Map<number, ItemError>;
}

export interface SyncSettings {
	unfollowOthers: boolean;
	dryRun: boolean;
	maxUnfollows: number;
}

export interface SyncPlan {
	steps: SyncStep[];
	/** Watched companies no item names that were kept because some item has no valid NIF. */
	unfollowsHeldBack: number;
}

/** Every setting of Sync is read before anything changes. */
const NOTHING_CHANGED = 'Nothing was changed.';

export function readSyncSettings(context: IExecuteFunctions): SyncSettings {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const maxUnfollows = readNumericOption(context.getNode(), options.maxUnfollows, {
		label: 'Max Unfollows',
		fallback: 10,
		minimum: 0,
		consequence: NOTHING_CHANGED,
	});
	return {
		unfollowOthers: readToggleParameter(context, 'unfollowOthers', {
			label: 'Unfollow Others',
			fallback: false,
			consequence: NOTHING_CHANGED,
		}),
		dryRun: readToggleParameter(context, 'options.dryRun', {
			label: 'Dry Run',
			fallback: false,
			consequence: NOTHING_CHANGED,
		}),
		maxUnfollows: Math.floor(maxUnfollows),
	};
}

/**
 * Every item's NIF, checked and normalised (and a company picked by name or slug looked up)
 * before anything changes. A failure stops the run at once, unless the node continues on fail:
 * then it is kept to become that item's error item.
 */
export async function readSyncInput(context: IExecuteFunctions, run: NodeRun): Promise<SyncInput> {
	const input: SyncInput = { named: new Map(), invalid: new Map() };
	const keys = new Set<string>();
	const nifs = await readItemNifs.call(context, run);
	for (const [itemIndex, nif] of nifs.entries()) {
		if (typeof nif === 'string') {
			if (!keys.has(nifKey(nif))) input.named.set(nif, itemIndex);
			keys.add(nifKey(nif));
			continue;
		}
		if (!context.continueOnFail()) throw nif;
		input.invalid.set(itemIndex, nif);
	}
	return input;
}

const nameOf = (entity: IDataObject | undefined) =>
	typeof entity?.name === 'string' ? entity.name : null;

/**
 * What Sync does: follow each named company not on the watch list, keep the others and, with
 * Unfollow Others, unfollow the watched companies no item names. An input that names no company,
 * or has an item whose company cannot be told, is not taken for the whole list: it unfollows nothing.
 */
export function planSync(
	input: SyncInput,
	watched: IDataObject[],
	unfollowOthers: boolean,
): SyncPlan {
	// Keyed so that two spellings of one company's NIF are one company (see nifKey).
	const watchedByKey = new Map<string, IDataObject>();
	for (const entity of watched) {
		if (typeof entity.nif !== 'string' || entity.nif.trim() === '') continue;
		const key = nifKey(entity.nif);
		if (!watchedByKey.has(key)) watchedByKey.set(key, entity);
	}
	const steps: SyncStep[] = [...input.named].map(([nif, itemIndex]) => ({
		nif,
		name: nameOf(watchedByKey.get(nifKey(nif))),
		action: watchedByKey.has(nifKey(nif)) ? 'keep' : 'follow',
		itemIndex,
	}));
	const namedKeys = new Set([...input.named.keys()].map(nifKey));
	const others = [...watchedByKey].filter(([key]) => !namedKeys.has(key));
	if (!unfollowOthers) return { steps, unfollowsHeldBack: 0 };
	if (input.named.size === 0 || input.invalid.size > 0)
		return { steps, unfollowsHeldBack: others.length };
	// An unfollow names the company as the list writes it.
	for (const [, entity] of others)
		steps.push({ nif: String(entity.nif).trim(), name: nameOf(entity), action: 'unfollow' });
	return { steps, unfollowsHeldBack: 0 };
}

export const unfollowCount = (steps: SyncStep[]) =>
	steps.filter((step) => step.action === 'unfollow').length;

export function tooManyUnfollowsError(
	node: INode,
	plan: SyncPlan,
	maxUnfollows: number,
): NodeOperationError {
	const unfollows = unfollowCount(plan.steps);
	const named = plan.steps.length - unfollows;
	return new NodeOperationError(
		node,
		`Sync would unfollow ${unfollows} companies, more than Max Unfollows (${maxUnfollows}): nothing was changed`,
		{
			description: `The input names ${named} companies; with Unfollow Others on, every watched company it leaves out is unfollowed, and LibreBOR stops alerting on it. Check that the input is the whole list (an empty or cut-short sheet is not). If these unfollows are wanted, set Max Unfollows in Options to ${unfollows} or more; turn on Dry Run to see the list first.`,
		},
	);
}
