import type { IDataObject } from 'n8n-workflow';

import { categoryOf, positionChangeOf } from './actCategories';
import { alertToEntries, entryMatchesLabels, type LibreBorAlert } from './alert';
import { entryPassesFilter, type EntryFilter } from './categoryFilter';

/** What one output item holds: an alert, one of its bulletin entries, or one person an entry lists. */
export type AlertOutput = 'alert' | 'entry' | 'position';

/** The entry fields a person change carries, so that it reads on its own. */
const ENTRY_FIELDS_OF_POSITION = [
	'label',
	'category',
	'borme',
	'company',
	'announcement',
	'alert_id',
	'created_at',
	'entity_name',
	'entity_slug',
	'entity_type',
];

const isRecord = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/** The alert with each bulletin entry's `category` alongside its label. */
function withCategories(alert: LibreBorAlert): LibreBorAlert {
	if (!Array.isArray(alert.data)) return { ...alert };
	const data = alert.data.map((entry) =>
		isRecord(entry) ? { ...entry, category: categoryOf(entry.label) } : entry,
	);
	return { ...alert, data };
}

/** One record per position of an entry (as flattened by alertToEntries): the person and the act. */
function positionRecords(entry: IDataObject): IDataObject[] {
	if (!Array.isArray(entry.positions)) return [];
	const act: IDataObject = { change: positionChangeOf(entry.label) };
	for (const field of ENTRY_FIELDS_OF_POSITION) act[field] = entry[field];
	return entry.positions.filter(isRecord).map((position) => ({ ...position, ...act }));
}

/**
 * The records one alert (already past the alert filters) gives for an output. `categorised` is
 * false only for version 1 of the action node, whose output stays as it always was: the alert as
 * LibreBOR sends it, or its entries whose label matches.
 */
export function recordsOfAlert(
	alert: LibreBorAlert,
	output: AlertOutput,
	filter: EntryFilter,
	categorised = true,
): IDataObject[] {
	if (!categorised) {
		if (output !== 'entry') return [alert];
		return alertToEntries(alert).filter((entry) => entryMatchesLabels(entry, filter.labels));
	}
	const shaped = withCategories(alert);
	if (output === 'alert') return [shaped];
	const entries = alertToEntries(shaped).filter((entry) => entryPassesFilter(entry, filter));
	return output === 'entry' ? entries : entries.flatMap(positionRecords);
}
