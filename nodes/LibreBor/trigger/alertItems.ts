import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { alertPassesFilter } from '../alerts/alertFilter';
import { recordsOfAlert } from '../alerts/alertRecords';
import { createdAtMs, type LibreBorAlert } from '../alerts/alert';
import { ascending } from './knownAlerts';
import type { TriggerSettings } from './settings';
import { UUID_PATTERN } from '../identifiers/uuid';

/** Only a UUID ever goes into a path: an id such as `all` or `../x` would reach another route. */
export function hasUsableId(alert: { id: string }): boolean {
	return UUID_PATTERN.test(alert.id);
}

const ID_WARNING =
	'This alert id is not a UUID: the trigger emits the alert but never marks it as read';

/** The record as an item's json, never as the item itself, with a warning when its id is odd. */
function itemOf(record: IDataObject, usableId: boolean): INodeExecutionData {
	return { json: usableId ? { ...record } : { ...record, id_warning: ID_WARNING } };
}

/** Oldest first, the order a workflow expects events in; the API lists the newest first. */
export function oldestFirst(alerts: LibreBorAlert[]): LibreBorAlert[] {
	return [...alerts]
		.reverse()
		.sort((a, b) => ascending(createdAtMs(a) ?? Infinity, createdAtMs(b) ?? Infinity));
}

/**
 * The items one alert gives: the alert itself, each of its entries or each person they list, as the
 * output option says, every entry with its act category. None when the filter (labels, categories,
 * company, creation time) rules it out; with entries or people, only those of the entries that
 * pass. The caller remembers an alert that gives no item as seen all the same.
 */
export function itemsForAlert(
	alert: LibreBorAlert,
	settings: TriggerSettings,
): INodeExecutionData[] {
	if (!alertPassesFilter(alert, settings.filter)) return [];
	const usableId = hasUsableId(alert);
	return recordsOfAlert(alert, settings.output, settings.filter).map((record) =>
		itemOf(record, usableId),
	);
}
