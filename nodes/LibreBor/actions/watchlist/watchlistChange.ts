import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { listWatchedEntities } from '../../api/watchlist';
import type { ItemRequest, RequestSettings } from '../../run/nodeRun';
import { nifKey } from '../../identifiers/nif';
import { pairRecords, runForEachItem } from '../../run/itemRunner';
import { readRunSettings } from '../../parameters/runSettings';
import { readItemNif } from '../companyNif';

export interface WatchlistChange {
	/** Whether the company is on the watch list once the change is made. */
	followedAfter: boolean;
	/** Sends the change; undefined when the service says there was nothing to change. */
	send: (
		this: IExecuteFunctions,
		nif: string,
		request: RequestSettings,
	) => Promise<IDataObject | undefined>;
	/** The `change` reported when the list changed, and when it already was as wanted. */
	changed: string;
	unchanged: string;
}

/** The watched companies by their key, each with its NIF as the list writes it. */
function nifsOf(entities: IDataObject[]): Map<string, string> {
	const nifs = new Map<string, string>();
	for (const { nif } of entities)
		if (typeof nif === 'string' && nif.trim() !== '') nifs.set(nifKey(nif), nif.trim());
	return nifs;
}

/** Follow and Unfollow: one change per item, skipped when the list already is as wanted. */
export async function executeWatchlistChange(
	this: IExecuteFunctions,
	change: WatchlistChange,
): Promise<INodeExecutionData[]> {
	// The watch list is read once per execution, so that following a long list costs one extra
	// request, and kept up to date as items change it. An item for a NIF that another item is
	// changing right now waits for it.
	let followed: Promise<Map<string, string>> | undefined;
	const inFlight = new Map<string, Promise<unknown>>();
	const changeUnlessDone = async (nif: string, item: ItemRequest) => {
		followed ??= listWatchedEntities.call(this, { run: item.run }).then(nifsOf);
		const nifs = await followed;
		const key = nifKey(nif);
		const listed = nifs.get(key);
		if ((listed !== undefined) === change.followedAfter) return undefined;
		// An unfollow names the company as the list writes it.
		const answer = await sendConfirmed.call(this, change, listed ?? nif, item);
		if (change.followedAfter) nifs.set(key, nif);
		else nifs.delete(key);
		return answer;
	};
	return await runForEachItem(this, readRunSettings(this), async (item) => {
		const { itemIndex } = item;
		const nif = await readItemNif.call(this, item);
		const current = (inFlight.get(nifKey(nif)) ?? Promise.resolve()).then(
			async () => await changeUnlessDone(nif, item),
		);
		inFlight.set(
			nifKey(nif),
			current.catch(() => undefined),
		);
		const answer = await current;
		return pairRecords(itemIndex, [
			answer
				? { ...answer, nif, change: change.changed }
				: { result: 'success', nif, change: change.unchanged },
		]);
	});
}

/** A refusal of the request itself (credentials, access, rate, server) says nothing about the list. */
function mayMeanAlreadyDone(error: NodeApiError): boolean {
	const status = Number(error.httpCode);
	return (
		(status >= 200 && status < 300) ||
		(status >= 400 && status < 500 && ![401, 402, 403, 407, 429].includes(status))
	);
}

/**
 * The contract does not show how LibreBOR answers a change with nothing left to do (following a
 * followed company, unfollowing one that is not followed), which is what a retry meets after an
 * answer lost on the way back. So an answer that does not confirm the change is checked against
 * the watch list itself: when the list is as wanted, the change is done; otherwise the error stands.
 */
export async function sendConfirmed(
	this: IExecuteFunctions,
	change: WatchlistChange,
	nif: string,
	request: RequestSettings,
): Promise<IDataObject | undefined> {
	const refusal = await change.send.call(this, nif, request).then(
		(answer) => ({ answer }),
		(error: unknown) => ({ error }),
	);
	if ('answer' in refusal) return refusal.answer;
	const { error } = refusal;
	if (!(error instanceof NodeApiError) || !mayMeanAlreadyDone(error)) throw error;
	const entities = await listWatchedEntities.call(this, request).catch(() => undefined);
	if (!entities || nifsOf(entities).has(nifKey(nif)) !== change.followedAfter) throw error;
	return { result: 'success' };
}
