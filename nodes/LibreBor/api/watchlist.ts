import type { IDataObject } from 'n8n-workflow';

import { unexpectedBodyError } from '../transport/errors';
import {
	expectObject,
	expectSuccess,
	libreBorRequest,
	type ApiResponse,
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
): Promise<ApiResponse> {
	return await libreBorRequest.call(this, {
		method: 'POST',
		path,
		form: { nif, type: 'company' },
		retry: 'idempotent',
		acceptStatuses,
		...settings,
	});
}

export async function followCompany(
	this: LibreBorFunctions,
	nif: string,
	settings: RequestSettings = {},
): Promise<IDataObject> {
	const path = '/alerts/follow/';
	const response = await postWatchlistChange.call(this, path, nif, settings);
	return expectSuccess.call(this, response, `POST ${path}`, settings.itemIndex);
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
	const path = '/alerts/unfollow/';
	const response = await postWatchlistChange.call(this, path, nif, settings, [404]);
	if (response.statusCode === 404)
		return response.maybeDoneBefore ? { result: 'success' } : undefined;
	return expectSuccess.call(this, response, `POST ${path}`, settings.itemIndex);
}
