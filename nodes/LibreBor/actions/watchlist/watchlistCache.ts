import type { IExecuteFunctions } from 'n8n-workflow';

import { listWatchedEntities } from '../../api/watchlist';
import type { RequestSettings } from '../../transport/request';
import { normalizeNif } from '../../helpers/nif';

/**
 * The NIFs on the watch list, read once per execution so that following a long list
 * costs one extra request, and so each item can say whether it changed anything.
 * Changes made by this execution are recorded as they happen; an item for a NIF that
 * another item is changing right now waits for it.
 */
export class WatchlistState {
	private followed?: Promise<Set<string>>;

	private readonly inFlight = new Map<string, Promise<unknown>>();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly settings: RequestSettings,
	) {}

	private async followedNifs(): Promise<Set<string>> {
		this.followed ??= listWatchedEntities
			.call(this.context, this.settings)
			.then(
				(entities) => new Set(entities.map((entity) => normalizeNif(String(entity.nif ?? '')))),
			);
		return await this.followed;
	}

	/** Runs `change` for `nif` unless `isNoop` says the list already is as wanted. */
	async apply<T>(
		nif: string,
		isNoop: (followed: boolean) => boolean,
		change: () => Promise<{ result: T; followedAfter: boolean }>,
	): Promise<{ result?: T; skipped: boolean }> {
		const previous = this.inFlight.get(nif) ?? Promise.resolve();
		const current = previous.then(async () => await this.applyNow(nif, isNoop, change));
		this.inFlight.set(
			nif,
			current.catch(() => undefined),
		);
		return await current;
	}

	private async applyNow<T>(
		nif: string,
		isNoop: (followed: boolean) => boolean,
		change: () => Promise<{ result: T; followedAfter: boolean }>,
	): Promise<{ result?: T; skipped: boolean }> {
		const followed = await this.followedNifs();
		if (isNoop(followed.has(nif))) return { skipped: true };
		const { result, followedAfter } = await change();
		if (followedAfter) followed.add(nif);
		else followed.delete(nif);
		return { result, skipped: false };
	}
}
