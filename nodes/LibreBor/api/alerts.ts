import type { IDataObject } from 'n8n-workflow';

import { isAlert, type LibreBorAlert } from '../helpers/alerts';
import { unexpectedBodyError } from '../transport/errors';
import { expectSuccess, libreBorRequest, type LibreBorFunctions } from '../transport/request';

/**
 * The latest unread alerts, as the API lists them (newest first). A record that is not an alert
 * (no string id) is left out with a logged warning, so that one bad record cannot fail every call.
 */
export async function listUnreadAlerts(
	this: LibreBorFunctions,
	itemIndex?: number,
	timeoutMs?: number,
): Promise<LibreBorAlert[]> {
	const path = '/alerts/';
	const response = await libreBorRequest.call(this, {
		method: 'GET',
		path,
		retry: 'idempotent',
		itemIndex,
		timeoutMs,
	});
	const list = response.json;
	if (!Array.isArray(list)) {
		throw unexpectedBodyError(
			{ node: this.getNode(), itemIndex, operation: `GET ${path}` },
			response.statusCode,
			{ kind: 'json', value: list },
		);
	}
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
	itemIndex?: number,
	timeoutMs?: number,
): Promise<IDataObject> {
	const path = `/alerts/mark_as_read/${encodeURIComponent(alertId)}/`;
	const response = await libreBorRequest.call(this, {
		method: 'GET',
		path,
		retry: 'idempotent',
		itemIndex,
		timeoutMs,
	});
	return expectSuccess.call(this, response, `GET ${path}`, itemIndex);
}

export async function markAllAlertsAsRead(
	this: LibreBorFunctions,
	itemIndex?: number,
	timeoutMs?: number,
): Promise<IDataObject> {
	const path = '/alerts/mark_as_read/all/';
	const response = await libreBorRequest.call(this, {
		method: 'GET',
		path,
		retry: 'idempotent',
		itemIndex,
		timeoutMs,
	});
	return expectSuccess.call(this, response, `GET ${path}`, itemIndex);
}
