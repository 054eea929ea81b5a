import type { IDataObject } from 'n8n-workflow';

import type { Alert } from '../../tools/simulator/index.mts';
import { categoryOfLabel, withCategories } from '../support/actCategoryTable.mts';

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

/** An alert as the trigger (and version 2 of the LibreBOR node) outputs it: each entry with its category. */
export const triggerAlertItem = (alert: Alert): IDataObject => asJson(withCategories(alert));

/** The trigger's items for an alert with output "entry": as entryItems, each with its category. */
export const triggerEntryItems = (alert: Alert): IDataObject[] =>
	entryItems(alert).map((entry) => ({ ...entry, category: categoryOfLabel(entry.label) }));
