import type { IDataObject } from 'n8n-workflow';

import { unexpectedBodyError } from '../transport/errors';
import {
	expectObject,
	expectSuccess,
	libreBorRequest,
	type LibreBorFunctions,
	type RequestSettings,
} from '../transport/request';

export async function listWatchedEntities(
	this: LibreBorFunctions,
	settings: RequestSettings = {},
): Promise<IDataObject[]> {
	const path = '/alerts/following/';
	const response = await libreBorRequest.call(this, {
		method: 'GET',
		path,
		retry: 'idempotent',
		...settings,
	});
	const answer = expectObject.call(this, response, `GET ${path}`, settings.itemIndex);
	const entities = answer.entities;
	if (
		!Array.isArray(entities) ||
		!entities.every((entity) => entity && typeof entity === 'object')
	) {
		throw unexpectedBodyError(
			{ node: this.getNode(), itemIndex: settings.itemIndex, operation: `GET ${path}` },
			response.statusCode,
			{ kind: 'json', value: answer },
		);
	}
	return entities as IDataObject[];
}

/** Follow and unfollow are idempotent on the service, so they may be retried like reads. */
async function postWatchlistChange(
	this: LibreBorFunctions,
	path: string,
	nif: string,
	settings: RequestSettings,
	acceptStatuses?: number[],
): Promise<{ statusCode: number; answer: IDataObject | undefined; maybeDoneBefore: boolean }> {
	const response = await libreBorRequest.call(this, {
		method: 'POST',
		path,
		form: { nif, type: 'company' },
		retry: 'idempotent',
		acceptStatuses,
		...settings,
	});
	const { statusCode, json, maybeDoneBefore } = response;
	const answer = acceptStatuses?.includes(statusCode)
		? json && typeof json === 'object'
			? (json as IDataObject)
			: undefined
		: expectSuccess.call(this, response, `POST ${path}`, settings.itemIndex);
	return { statusCode, answer, maybeDoneBefore };
}

export async function followCompany(
	this: LibreBorFunctions,
	nif: string,
	settings: RequestSettings = {},
) {
	const { answer } = await postWatchlistChange.call(this, '/alerts/follow/', nif, settings);
	return answer as IDataObject;
}

/**
 * Undefined when the service says the company was not followed. A "not followed" that answers a
 * retry, after an attempt whose answer was lost, most likely means that attempt unfollowed it.
 */
export async function unfollowCompany(
	this: LibreBorFunctions,
	nif: string,
	settings: RequestSettings = {},
): Promise<IDataObject | undefined> {
	const { statusCode, answer, maybeDoneBefore } = await postWatchlistChange.call(
		this,
		'/alerts/unfollow/',
		nif,
		settings,
		[404],
	);
	if (statusCode !== 404) return answer;
	return maybeDoneBefore ? { result: 'success' } : undefined;
}
