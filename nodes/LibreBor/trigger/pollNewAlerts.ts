import { randomUUID } from 'crypto';
import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { isThrottleError } from '../transport/errors';
import { keepUnstoredState, unlessPolling, unstoredStateOf } from './activationMemory';
import { emitWithReceipt, forgetReceipt } from './deliveryReceipts';
import { limitState } from './knownAlerts';
import {
	committedWithExecution,
	readPollState,
	writePollState,
	type Delivery,
	type PollState,
} from './pollState';
import {
	baselineOf,
	itemsOfNewAlerts,
	knownAfter,
	markable,
	pollRound,
	skipThrottledPoll,
} from './pollRound';
import type { TriggerSettings } from './settings';
import { settleDeliveries } from './settleDeliveries';

/**
 * One production poll, skipped (before it reads its settings or starts its pacer) when the
 * previous poll of this activation is still running.
 * The state is written once, at the end. A poll that throws leaves the previous state in place,
 * so a failed listing is simply caught up by the next poll.
 *
 * An alert is marked read only once n8n has said that it created the execution carrying it. By
 * default n8n saves the poll's state before it creates that execution, so the emission goes out
 * with a receipt (deliveryReceipts.ts) and stays in flight until n8n settles it: then its alerts
 * are marked, or, when no execution is known to carry them, emitted again. With durable poll
 * cursors n8n commits the state and the execution together: an emission is known stored at once.
 */
export async function pollNewAlerts(
	this: IPollFunctions,
	startPoll: () => Promise<TriggerSettings>,
): Promise<INodeExecutionData[][] | null> {
	const emitted = await unlessPolling(this, async () => {
		const poll = async () => await pollOnce.call(this, await startPoll());
		const polled = await poll().then(
			(items) => ({ items }),
			(error: unknown) => ({ error }),
		);
		if ('items' in polled) return polled.items;
		const { error } = polled;
		// The first poll must take its baseline: it fails, and n8n activates the workflow again later.
		if (!isThrottleError(error) || !hasPolledBefore(this)) throw error;
		skipThrottledPoll(this, error);
		return null;
	});
	if (emitted !== undefined) return emitted;
	this.logger.debug('LibreBOR Trigger skipped a poll because the previous one is still running');
	return null;
}

const hasPolledBefore = (context: IPollFunctions) =>
	(readPollState(context.getWorkflowStaticData('node')) ?? unstoredStateOf(context)) !== undefined;

async function pollOnce(
	this: IPollFunctions,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][] | null> {
	const staticData = this.getWorkflowStaticData('node');
	const stored = readPollState(staticData);
	const previous = stored ?? unstoredStateOf(this);
	const settled = settleDeliveries(this, previous?.inFlight ?? []);
	const toMark = [...(previous?.pending ?? []), ...settled.stored];
	const lost = new Set(settled.lost.flatMap(([, keys]) => keys));
	const round = await pollRound(this, settings, previous, toMark, { forget: lost });
	// Kept in process memory while n8n has stored no state: the state as it is without what this
	// poll emits, which n8n may still fail to store with its execution.
	const save = (state: PollState, withoutEmission = state) => {
		writePollState(staticData, limitState(state));
		keepUnstoredState(this, stored ? undefined : limitState(withoutEmission));
		for (const token of settled.spent) forgetReceipt(this, token);
	};
	if (!previous && !settings.includeExisting) {
		save(baselineOf(round));
		return null;
	}

	const { items, carried } = itemsOfNewAlerts(this, round.newAlerts, settings);
	const before: PollState = {
		known: round.known,
		pending: round.pending,
		horizon: previous?.horizon,
		inFlight: settled.waiting,
	};
	const after = { ...before, known: knownAfter(round) };
	if (items.length === 0) {
		save(after);
		return null;
	}
	if (committedWithExecution(staticData))
		after.pending = [...before.pending, ...markable(carried, settings)];
	else after.inFlight = [...settled.waiting, emissionWithReceipt(this, carried)];
	save(after, before);
	return [items];
}

/** An emission that n8n saves before it creates its execution: in flight until n8n says what became of it. */
function emissionWithReceipt(context: IPollFunctions, carried: string[]): Delivery {
	const token = randomUUID();
	emitWithReceipt(context, token);
	return [token, carried];
}
