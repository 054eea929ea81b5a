import type { INodeExecutionData, IPollFunctions, ITriggerFunctions } from 'n8n-workflow';

import { interceptNextPollEmit, namesItsExecution, type EmissionDone } from '../run/n8nInternals';
import type { PollingFunctions } from '../run/nodeRun';
import { triggerKey } from './emissionKey';

/** What this process knows of the execution n8n was asked to create for one emission. */
export type Receipt = 'waiting' | 'stored' | 'notStored';

/** Receipts per trigger (workflow and node), by the emission's token. Process memory on purpose. */
const receiptsByTrigger = new Map<string, Map<string, Receipt>>();
/**
 * Receipts kept per trigger at most: more emissions than are in flight at once, also for version 3,
 * which emits each alert on its own (a receipt is settled once its execution ends). One forgotten
 * is only emitted again under its key, which n8n refuses.
 */
const MAX_RECEIPTS = 10_000;

/**
 * Version 2's receipts, per activation: an emission of an earlier activation is emitted again
 * under its key, which n8n refuses when it carried it, so it needs no receipt to survive.
 */
const receiptsByActivation = new WeakMap<PollingFunctions, Map<string, Receipt>>();

function receiptsOf(context: PollingFunctions): Map<string, Receipt> {
	if ('emit' in context) {
		const receipts = receiptsByActivation.get(context) ?? new Map<string, Receipt>();
		receiptsByActivation.set(context, receipts);
		return receipts;
	}
	const key = triggerKey(context);
	let receipts = receiptsByTrigger.get(key);
	if (!receipts) {
		receipts = new Map();
		receiptsByTrigger.set(key, receipts);
	}
	return receipts;
}

function deferred(): EmissionDone {
	const done = {} as EmissionDone;
	done.promise = new Promise((resolve, reject) => {
		done.resolve = resolve;
		done.reject = reject;
	});
	return done;
}

/**
 * What this process heard of an emission: `undefined` when nothing, because the emission never
 * reached n8n (it dropped the poll's items: the workflow changed or stopped meanwhile) or was made
 * before n8n restarted.
 */
export function receiptOf(context: PollingFunctions, token: string): Receipt | undefined {
	return receiptsOf(context).get(token);
}

export function forgetReceipt(context: PollingFunctions, token: string): void {
	receiptsOf(context).delete(token);
}

/**
 * A donePromise for n8n to settle with the emission's execution, which records the receipt and
 * passes the settlement on. Resolved (with the run, or with nothing when n8n refused a duplicate
 * deduplication key: an execution already carried it) means stored; rejected, stored only when
 * the error names the execution n8n created.
 */
function receiptTaker(
	context: PollingFunctions,
	token: string,
	passOn?: EmissionDone,
): EmissionDone {
	const receipts = receiptsOf(context);
	receipts.set(token, 'waiting');
	for (const old of receipts.keys()) {
		if (receipts.size <= MAX_RECEIPTS) break;
		receipts.delete(old);
	}
	const done = deferred();
	done.promise.then(
		(run) => {
			receipts.set(token, 'stored');
			passOn?.resolve(run);
		},
		(error: Error) => {
			receipts.set(token, namesItsExecution(error) ? 'stored' : 'notStored');
			passOn?.reject(error);
		},
	);
	return done;
}

/**
 * Emits one batch under its deduplication key (version 2): n8n saves the static data, then
 * creates the execution unless one with this key exists, and settles the receipt either way.
 */
export function emitUnderKey(
	context: ITriggerFunctions,
	items: INodeExecutionData[],
	key: string,
): void {
	const done = receiptTaker(context, key) as Parameters<ITriggerFunctions['emit']>[2];
	context.emit([items], undefined, done, key);
}

/**
 * Makes the items this poll returns carry a receipt: n8n hands them to its emit without a
 * donePromise, and settles the one given there with the execution it creates for them
 * (resolved once it has finished; rejected with that execution's own error when it was
 * cancelled; rejected otherwise when none was created). Wrapping that emit once, for this
 * emission only, keeps n8n's own checks between the poll and the emission (a workflow changed,
 * deactivated or stopped meanwhile gets no emission, and so no receipt).
 */
export function emitWithReceipt(context: IPollFunctions, token: string): void {
	interceptNextPollEmit(context, (original, data, responsePromise, donePromise) =>
		original.call(context, data, responsePromise, receiptTaker(context, token, donePromise)),
	);
}
