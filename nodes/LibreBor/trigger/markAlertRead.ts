import type { IPollFunctions } from 'n8n-workflow';

import { libreBorRequest } from '../transport/request';

/** Marks one alert as read; a 404 means it is already read (or gone), which is just as good. */
export async function markAlertReadIfUnread(this: IPollFunctions, alertId: string, timeoutMs?: number): Promise<void> {
	await libreBorRequest.call(this, {
		method: 'GET',
		path: `/alerts/mark_as_read/${encodeURIComponent(alertId)}/`,
		retry: 'idempotent',
		acceptStatuses: [404],
		timeoutMs,
	});
}
