import type { IDataObject } from 'n8n-workflow';

import type { RequestSettings } from '../run/nodeRun';
import type { ApiResponse, LibreBorFunctions } from '../transport/request';
import {
	expectObject,
	expectSuccess,
	isServiceNotFound,
	libreBorRequest,
	unexpectedJson,
} from '../transport/request';

export async function listWatchedEntities(
	this: LibreBorFunctions,
	request: RequestSettings,
): Promise<IDataObject[]> {
	const response = await libreBorRequest.call(
		this,
		{ method: 'GET', path: '/alerts/following/', retry: 'idempotent' },
		request,
	);
	const answer = expectObject(response);
	const entities = answer.entities;
	if (
		!Array.isArray(entities) ||
		!entities.every((entity) => entity && typeof entity === 'object')
	) {
		throw unexpectedJson(response, answer);
	}
	return entities as IDataObject[];
}

/** Follow and unfollow are idempotent on the service, so they may be retried like reads. */
async function postWatchlistChange(
	context: LibreBorFunctions,
	path: string,
	nif: string,
	request: RequestSettings,
	acceptStatuses?: number[],
): Promise<ApiResponse> {
	return await libreBorRequest.call(
		context,
		{ method: 'POST', path, form: { nif, type: 'company' }, retry: 'idempotent', acceptStatuses },
		request,
	);
}

export async function followCompany(
	this: LibreBorFunctions,
	nif: string,
	request: RequestSettings,
): Promise<IDataObject> {
	return expectSuccess(await postWatchlistChange(this, '/alerts/follow/', nif, request));
}

/**
 * Undefined when the service says the company was not followed. A "not followed" that answers a
 * retry, after an attempt whose answer was lost, most likely means that attempt unfollowed it.
 */
export async function unfollowCompany(
	this: LibreBorFunctions,
	nif: string,
	request: RequestSettings,
): Promise<IDataObject | undefined> {
	const response = await postWatchlistChange(this, '/alerts/unfollow/', nif, request, [404]);
	if (isServiceNotFound(response))
		return response.maybeDoneBefore ? { result: 'success' } : undefined;
	return expectSuccess(response);
}
