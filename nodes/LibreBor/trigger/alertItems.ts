import type { INodeExecutionData } from 'n8n-workflow';

import { alertMatchesLabels, alertToEntries, entryMatchesLabels, type LibreBorAlert } from '../helpers/alerts';
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
 * None when the label filter rules it out; with entries, only the entries that match.
 */
export function itemsForAlert(alert: LibreBorAlert, settings: TriggerSettings): INodeExecutionData[] {
	if (!alertMatchesLabels(alert, settings.labels)) return [];
	if (settings.output === 'alert') return [{ json: alert }];
	return alertToEntries(alert)
		.filter((entry) => entryMatchesLabels(entry, settings.labels))
		.map((entry) => ({ json: entry }));
}
