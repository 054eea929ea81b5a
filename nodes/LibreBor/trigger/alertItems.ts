import type { INodeExecutionData } from 'n8n-workflow';

import { alertPassesFilter } from '../helpers/alertFilter';
import { alertToEntries, entryMatchesLabels, type LibreBorAlert } from '../helpers/alerts';
import { ascending, createdAtMs } from './knownAlerts';
import type { TriggerSettings } from './settings';

/** Oldest first, the order a workflow expects events in; the API lists the newest first. */
export function oldestFirst(alerts: LibreBorAlert[]): LibreBorAlert[] {
	return [...alerts]
		.reverse()
		.sort((a, b) => ascending(createdAtMs(a) ?? Infinity, createdAtMs(b) ?? Infinity));
}

/**
 * The items one alert gives: the alert itself, or each of its entries, as the output option says.
 * None when the filter (labels, company, creation time) rules it out; with entries, only the entries
 * whose label matches. The caller remembers a ruled-out alert as seen all the same.
 */
export function itemsForAlert(alert: LibreBorAlert, settings: TriggerSettings): INodeExecutionData[] {
	if (!alertPassesFilter(alert, settings.filter)) return [];
	if (settings.output === 'alert') return [{ json: alert }];
	return alertToEntries(alert)
		.filter((entry) => entryMatchesLabels(entry, settings.filter.labels))
		.map((entry) => ({ json: entry }));
}
