import type { IDataObject } from 'n8n-workflow';

export interface LibreBorAlert extends IDataObject {
	id: string;
	created_at?: string;
	entity_name?: string;
	entity_slug?: string;
	entity_type?: string;
	data?: IDataObject[];
}

export function isAlert(value: unknown): value is LibreBorAlert {
	return (
		!!value &&
		typeof value === 'object' &&
		!Array.isArray(value) &&
		typeof (value as { id?: unknown }).id === 'string'
	);
}

/** The alert's creation time, or null when it has none that can be read. */
export function createdAtMs(alert: LibreBorAlert): number | null {
	const time = typeof alert.created_at === 'string' ? Date.parse(alert.created_at) : NaN;
	return Number.isNaN(time) ? null : time;
}

function entriesOf(alert: LibreBorAlert): IDataObject[] {
	return Array.isArray(alert.data)
		? alert.data.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object')
		: [];
}

/** One flat record per bulletin entry of an alert, with the alert's own fields alongside. */
export function alertToEntries(alert: LibreBorAlert): IDataObject[] {
	return entriesOf(alert).map((entry) => ({
		...entry,
		alert_id: alert.id,
		created_at: alert.created_at,
		entity_name: alert.entity_name,
		entity_slug: alert.entity_slug,
		entity_type: alert.entity_type,
	}));
}

/** The act labels of an alert's entries, each once. */
export function labelsOf(alert: LibreBorAlert): string[] {
	const labels = entriesOf(alert).map((entry) => entry.label);
	return [...new Set(labels.filter((label): label is string => typeof label === 'string'))];
}

/** Accent- and case-insensitive form of a BORME act label, for matching. */
export function normalizeLabel(label: string): string {
	return label
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/\s+/g, ' ')
		.trim();
}

/** The labels of a comma-separated filter; empty means every label passes. */
export function parseLabelFilter(text: string): string[] {
	return text
		.split(',')
		.map(normalizeLabel)
		.filter((label) => label.length > 0);
}

/** Labels are open-ended, so any label matches when it equals one of the filter's. */
export function entryMatchesLabels(entry: IDataObject, labels: string[]): boolean {
	if (labels.length === 0) return true;
	return typeof entry.label === 'string' && labels.includes(normalizeLabel(entry.label));
}
