import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import type { ActCategory } from './actCategories';
import { createdAtMs, normalizeLabel, parseLabelFilter, type LibreBorAlert } from './alert';
import { alertHasPassingEntry, readCategories } from './categoryFilter';
import { isResourceLocator } from '../parameters/identifierParameters';
import { validateNif } from '../parameters/validation';
import { parseDateInTimeZone } from '../time/zonedTime';

/** What the user asked for in the filter options, read before anything is sent. */
export interface AlertFilterOptions {
	/** Normalised labels, from the list and the free text together; empty means every label. */
	labels: string[];
	/** The labels as the user gave them, for messages. */
	labelText: string;
	/** Act categories to keep besides the labels; with no label either, every entry is kept. */
	categories: ActCategory[];
	/** Normalised NIF of the company to keep, if any. */
	nif?: string;
	/** Keep only alerts created at or after this time. */
	createdAfterMs?: number;
}

/** The filter ready to apply: the company's NIF resolved to the watch-list entity alerts name. */
export interface AlertFilter extends AlertFilterOptions {
	company?: { slug?: string; name?: string };
}

/**
 * Labels from a list or a comma-separated text, whichever an expression gives either field (empty
 * values left out). Anything else is refused: dropped, it would keep every alert.
 */
function labelTexts(node: INode, value: unknown, field: string, itemIndex: number): string[] {
	const values = (Array.isArray(value) ? value : [value]).filter((text) => text != null);
	const notText = values.find((text) => typeof text !== 'string');
	if (notText !== undefined)
		throw new NodeOperationError(node, `${field} must be text, not ${JSON.stringify(notText)}`, {
			itemIndex,
			description: `Pick labels from the list, or give them as text, such as "Nombramientos, Ceses/Dimisiones" (a comma-separated text, or a list of texts). Nothing was read.`,
		});
	return (values as string[]).map((text) => text.trim()).filter((text) => text.length > 0);
}

/** `timeZone`: the workflow's, in which a Created After without an offset is read. */
export function readAlertFilterOptions(
	node: INode,
	options: IDataObject,
	timeZone: string,
	itemIndex = 0,
): AlertFilterOptions {
	const labelText = [
		...labelTexts(node, options.actLabels, 'Act Labels', itemIndex),
		...labelTexts(node, options.labels, 'Other Act Labels', itemIndex),
	].join(', ');
	const filter: AlertFilterOptions = {
		labels: [...new Set(parseLabelFilter(labelText))],
		labelText,
		categories: readCategories(node, options.categories, itemIndex),
	};

	const company = isResourceLocator(options.company) ? options.company.value : options.company;
	if (typeof company === 'string' && company.trim() !== '')
		filter.nif = validateNif(node, company, itemIndex);

	if (
		options.createdAfter !== undefined &&
		options.createdAfter !== '' &&
		options.createdAfter !== null
	) {
		const createdAfterMs = parseDateInTimeZone(String(options.createdAfter), timeZone);
		if (Number.isNaN(createdAfterMs)) {
			throw new NodeOperationError(
				node,
				`The date "${String(options.createdAfter)}" of Created After is not valid`,
				{
					itemIndex,
					description:
						'Pick a date, or give an ISO 8601 date such as 2026-01-31 or 2026-01-31T09:00:00Z.',
				},
			);
		}
		filter.createdAfterMs = createdAfterMs;
	}
	return filter;
}

function isAboutCompany(
	alert: LibreBorAlert,
	company: NonNullable<AlertFilter['company']>,
): boolean {
	if (company.slug && alert.entity_slug) return alert.entity_slug === company.slug;
	return (
		!!company.name &&
		typeof alert.entity_name === 'string' &&
		normalizeLabel(alert.entity_name) === normalizeLabel(company.name)
	);
}

export function alertPassesFilter(alert: LibreBorAlert, filter: AlertFilter): boolean {
	if (!alertHasPassingEntry(alert, filter)) return false;
	if (filter.company && !isAboutCompany(alert, filter.company)) return false;
	if (filter.createdAfterMs !== undefined) {
		const created = createdAtMs(alert);
		if (created === null || created < filter.createdAfterMs) return false;
	}
	return true;
}

export const hasAlertFilter = (filter: AlertFilterOptions): boolean =>
	filter.labels.length > 0 ||
	filter.categories.length > 0 ||
	filter.nif !== undefined ||
	filter.createdAfterMs !== undefined;
