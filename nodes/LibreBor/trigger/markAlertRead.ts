import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { notConfirmedError } from '../transport/errors';
import { libreBorRequest } from '../transport/request';

/**
 * Marks one alert as read; a 404 means it is already read (or gone), which is just as good.
 * Any other answer is done only when it says `success`: one that does not (`{"result":"error"}`,
 * no result at all) fails the mark, so that the next poll tries it again.
 */
export async function markAlertReadIfUnread(
	this: IPollFunctions,
	alertId: string,
	timeoutMs?: number,
): Promise<void> {
	const path = `/alerts/mark_as_read/${encodeURIComponent(alertId)}/`;
	const response = await libreBorRequest.call(this, {
		method: 'GET',
		path,
		retry: 'idempotent',
		acceptStatuses: [404],
		timeoutMs,
	});
	if (response.statusCode === 404) return;
	const result = (response.json as IDataObject | undefined)?.result;
	if (result === 'success') return;
	throw notConfirmedError(
		{ node: this.getNode(), operation: `GET ${path}` },
		response.statusCode,
		response.body,
		String(result ?? 'none'),
	);
}
