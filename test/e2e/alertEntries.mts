import type { IDataObject } from 'n8n-workflow';

import type { Alert } from '../../tools/simulator/index.mts';

/** A value as it comes back out of n8n's run data (JSON). */
export const asJson = (value: unknown): IDataObject =>
	JSON.parse(JSON.stringify(value)) as IDataObject;

/** The items the contract promises for an alert with output "entry": each entry with the alert's fields alongside. */
export function entryItems(alert: Alert): IDataObject[] {
	return alert.data.map((entry) => ({
		...asJson(entry),
		alert_id: alert.id,
		created_at: alert.created_at,
		entity_name: alert.entity_name,
		entity_slug: alert.entity_slug,
		entity_type: alert.entity_type,
	}));
}
