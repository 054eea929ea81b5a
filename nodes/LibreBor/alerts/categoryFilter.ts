import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { ACT_CATEGORIES, categoryOf, type ActCategory } from './actCategories';
import { alertToEntries, normalizeLabel, type LibreBorAlert } from './alert';

/** The labels (normalised) and categories an entry may have to pass; both empty lets all pass. */
export interface EntryFilter {
	labels: string[];
	categories: ActCategory[];
}

const isCategory = (value: string): value is ActCategory =>
	(ACT_CATEGORIES as readonly string[]).includes(value);

/**
 * The Categories option: the values picked in the list or, from an expression, an array or a
 * comma-separated text of them. A value that is not a category is refused, as a typo would
 * otherwise filter everything out without a word.
 */
export function readCategories(node: INode, value: unknown, itemIndex = 0): ActCategory[] {
	if (value === undefined || value === null) return [];
	const values = Array.isArray(value) ? value : String(value).split(',');
	const categories = new Set<ActCategory>();
	for (const raw of values) {
		const text = String(raw).trim().toLowerCase();
		if (text === '') continue;
		if (!isCategory(text)) {
			throw new NodeOperationError(node, `"${String(raw).slice(0, 40)}" is not an act category`, {
				itemIndex,
				description: `Pick categories from the Categories list, or give some of ${ACT_CATEGORIES.join(', ')} (an array or a comma-separated text). Nothing was read.`,
			});
		}
		categories.add(text);
	}
	return [...categories];
}

/** An entry passes when its label or its category was picked; with nothing picked, every entry does. */
export function entryPassesFilter(entry: IDataObject, filter: EntryFilter): boolean {
	if (filter.labels.length === 0 && filter.categories.length === 0) return true;
	const label = typeof entry.label === 'string' ? normalizeLabel(entry.label) : undefined;
	return (
		(label !== undefined && filter.labels.includes(label)) ||
		filter.categories.includes(categoryOf(entry.label))
	);
}

export function alertHasPassingEntry(alert: LibreBorAlert, filter: EntryFilter): boolean {
	if (filter.labels.length === 0 && filter.categories.length === 0) return true;
	return alertToEntries(alert).some((entry) => entryPassesFilter(entry, filter));
}
