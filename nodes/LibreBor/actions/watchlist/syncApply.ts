import type { IExecuteFunctions } from 'n8n-workflow';

import { followCompany, unfollowCompany } from '../../api/watchlist';
import { settleTasks, type Settled } from '../../run/itemRunner';
import type { NodeError } from '../../run/nodeErrors';
import type { NodeRun } from '../../run/nodeRun';
import { outcomeUnknown } from '../../transport/retryLoop';
import type { SyncStep } from './syncPlan';
import { sendConfirmed, type WatchlistChange } from './watchlistChange';

/**
 * How a change ended: made (`applied` false when LibreBOR had nothing left to change), failed, never
 * sent, or stopped after a try LibreBOR may have carried out (its outcome unknown).
 */
export type SyncOutcome =
	| { applied: boolean }
	| { error: NodeError }
	| { stopped: 'unsent' | 'unsure' };

/** Follow and Unfollow as their own operations send them, confirmed against the list when in doubt. */
const CHANGES: Record<'follow' | 'unfollow', WatchlistChange> = {
	follow: {
		followedAfter: true,
		send: followCompany,
		changed: 'followed',
		unchanged: 'already_followed',
	},
	unfollow: {
		followedAfter: false,
		send: unfollowCompany,
		changed: 'unfollowed',
		unchanged: 'not_followed',
	},
};

/** A list of changes for a message, cut short past `max`. */
function listed(steps: SyncStep[], max = 50): string {
	if (steps.length === 0) return 'none';
	const shown = steps.slice(0, max).map((step) => `${step.action} ${step.nif}`);
	const more = steps.length > max ? ` and ${steps.length - max} more` : '';
	return `${shown.join(', ')}${more}`;
}

/** A copy of the error, of the same kind (its status kept), that says more. */
function restated(error: NodeError, message: string, description?: string): NodeError {
	const copy = Object.create(
		Object.getPrototypeOf(error),
		Object.getOwnPropertyDescriptors(error),
	) as NodeError;
	copy.message = message;
	if (description !== undefined) copy.description = description;
	return copy;
}

/** The error of the change that stopped the run, saying which changes were made and which not. */
function stoppedError(
	failed: SyncStep,
	error: NodeError,
	outcomes: Map<SyncStep, SyncOutcome>,
): NodeError {
	const stepsWhere = (kept: (outcome: SyncOutcome) => boolean) =>
		[...outcomes].filter(([, outcome]) => kept(outcome)).map(([step]) => step);
	const made = stepsWhere((outcome) => 'applied' in outcome);
	const isUnsure = (outcome: SyncOutcome) => 'stopped' in outcome && outcome.stopped === 'unsure';
	const unsureSteps = stepsWhere(isUnsure);
	const notMade = stepsWhere((outcome) => !('applied' in outcome || isUnsure(outcome)));
	const unknown =
		unsureSteps.length > 0
			? ` Stopped after an answer that may hide that it was made (a server error; the watch list tells): ${listed(unsureSteps)}.`
			: '';
	return restated(
		error,
		`Sync stopped at the ${failed.action} of ${failed.nif}: ${error.message}`,
		`${made.length} of ${outcomes.size} changes were made before it stopped: ${listed(made)}. Not made: ${listed(notMade)}.${unknown} Run Sync again to make the rest: it only changes what still differs. ${error.description ?? ''}`.trim(),
	);
}

/** A change's outcome as Sync reports it: an error item names the change that failed. */
function syncOutcome(
	step: SyncStep,
	settled: Settled<boolean>,
	{ continueOnFail, unsure }: { continueOnFail: boolean; unsure: boolean },
): SyncOutcome {
	if ('value' in settled) return { applied: settled.value };
	if ('stopped' in settled) return { stopped: unsure ? 'unsure' : 'unsent' };
	// An error item shows only its message: it names the change that failed.
	const named = `The ${step.action} of ${step.nif} failed: ${settled.error.message}`;
	return { error: continueOnFail ? restated(settled.error, named) : settled.error };
}

/**
 * Makes the follows and unfollows of a plan, in parallel through the run's pacer as Follow and
 * Unfollow do. Without Continue On Fail the first failure stops the run: nothing new is sent, and
 * the error says which changes were made; with it, each failure is kept for its output item.
 */
export async function applySyncSteps(
	this: IExecuteFunctions,
	steps: SyncStep[],
	run: NodeRun,
): Promise<Map<SyncStep, SyncOutcome>> {
	const changes = steps.filter(
		(step): step is SyncStep & { action: keyof typeof CHANGES } => step.action !== 'keep',
	);
	run.progress.total = changes.length;
	// The changes stopped after a try LibreBOR may have carried out (a 5xx, its retry not sent).
	const unsure = new Set<number>();
	const settled = await settleTasks(
		this,
		run,
		changes.length,
		run.pacer.settings.ceiling,
		async (index, changeRun) => {
			const { action, nif, itemIndex } = changes[index];
			const answer = await sendConfirmed
				.call(this, CHANGES[action], nif, { run: changeRun, itemIndex })
				.catch((error: unknown) => {
					if (outcomeUnknown(error)) unsure.add(index);
					throw error;
				});
			return answer !== undefined;
		},
		(index) => changes[index].itemIndex,
	);
	const continueOnFail = this.continueOnFail();
	const outcomes = new Map(
		changes.map((step, index) => [
			step,
			syncOutcome(step, settled[index], { continueOnFail, unsure: unsure.has(index) }),
		]),
	);
	if (continueOnFail) return outcomes;
	const failure = [...outcomes].find(([, outcome]) => 'error' in outcome);
	if (failure && 'error' in failure[1]) throw stoppedError(failure[0], failure[1].error, outcomes);
	return outcomes;
}
