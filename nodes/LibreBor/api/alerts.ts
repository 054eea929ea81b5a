import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import type { AlertFilter, AlertFilterOptions } from '../alerts/alertFilter';
import { isAlert, type LibreBorAlert } from '../alerts/alert';
import { nifKey } from '../identifiers/nif';
import type { RequestSettings } from '../run/nodeRun';
import { notConfirmedError } from '../transport/errors';
import {
	expectSuccess,
	libreBorRequest,
	unexpectedJson,
	type LibreBorFunctions,
} from '../transport/request';
import { listWatchedEntities } from './watchlist';

async function readAlerts(
	context: LibreBorFunctions,
	path: string,
	request: RequestSettings,
	acceptStatuses?: number[],
) {
	return await libreBorRequest.call(
		context,
		{ method: 'GET', path, retry: 'idempotent', acceptStatuses },
		request,
	);
}

const markAsReadPath = (alertId: string) => `/alerts/mark_as_read/${encodeURIComponent(alertId)}/`;

/**
 * The latest unread alerts, as the API lists them (newest first). A record that is not an alert
 * (no string id) is left out with a logged warning, so that one bad record cannot fail every call.
 */
export async function listUnreadAlerts(
	this: LibreBorFunctions,
	request: RequestSettings,
): Promise<LibreBorAlert[]> {
	const path = '/alerts/';
	const response = await readAlerts(this, path, request);
	const list = response.json;
	if (!Array.isArray(list)) throw unexpectedJson(response);
	const alerts = list.filter(isAlert);
	if (alerts.length < list.length) {
		this.logger.warn(
			`LibreBOR listed ${list.length - alerts.length} record(s) without a string id under GET ${path}; they were left out`,
		);
	}
	return alerts;
}

export async function markAlertAsRead(
	this: LibreBorFunctions,
	alertId: string,
	request: RequestSettings,
): Promise<IDataObject> {
	return expectSuccess(await readAlerts(this, markAsReadPath(alertId), request));
}

/**
 * Marks one alert as read for the trigger; a 404 means it is already read (or gone), which is just
 * as good. Any other answer is done only when it says `success`: one that does not
 * (`{"result":"error"}`, no result at all) fails the mark, so that the next poll tries it again.
 */
export async function markAlertReadIfUnread(
	this: LibreBorFunctions,
	alertId: string,
	request: RequestSettings,
): Promise<void> {
	const response = await readAlerts(this, markAsReadPath(alertId), request, [404]);
	if (response.statusCode === 404) return;
	const result = (response.json as IDataObject | undefined)?.result;
	if (result === 'success') return;
	throw notConfirmedError(
		response.errorContext,
		response.statusCode,
		response.body,
		String(result ?? 'none'),
	);
}

export async function markAllAlertsAsRead(
	this: LibreBorFunctions,
	request: RequestSettings,
): Promise<IDataObject> {
	return expectSuccess(await readAlerts(this, '/alerts/mark_as_read/all/', request));
}

/** Alerts carry the company's name and slug, not its NIF: the watch list links the two. */
export async function resolveAlertFilter(
	this: LibreBorFunctions,
	options: AlertFilterOptions,
	request: RequestSettings,
): Promise<AlertFilter> {
	if (!options.nif) return options;
	const key = nifKey(options.nif);
	const entities = await listWatchedEntities.call(this, request);
	const entity = entities.find(
		(watched) => typeof watched.nif === 'string' && nifKey(watched.nif) === key,
	);
	if (!entity) {
		throw new NodeOperationError(
			this.getNode(),
			`The company ${options.nif} is not on your LibreBOR watch list`,
			{
				itemIndex: request.itemIndex,
				description:
					'LibreBOR only creates alerts for the companies you follow. Follow it first (LibreBOR node, Watch List > Follow), or pick a company from the list.',
			},
		);
	}
	return {
		...options,
		company: {
			slug: typeof entity.slug === 'string' ? entity.slug : undefined,
			name: typeof entity.name === 'string' ? entity.name : undefined,
		},
	};
}
