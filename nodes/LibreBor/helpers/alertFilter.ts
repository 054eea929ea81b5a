import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { listWatchedEntities } from '../api/watchlist';
import type { LibreBorFunctions } from '../transport/request';
import { alertMatchesLabels, normalizeLabel, parseLabelFilter, type LibreBorAlert } from './alerts';
import { validateNif } from './validation';
import { parseDateInTimeZone } from './zonedTime';
import { normalizeNif } from './nif';

/** What the user asked for in the filter options, read before anything is sent. */
export interface AlertFilterOptions {
	/** Normalised labels, from the list and the free text together; empty means every label. */
	labels: string[];
	/** The labels as the user gave them, for messages. */
	labelText: string;
	/** Normalised NIF of the company to keep, if any. */
	nif?: string;
	/** Keep only alerts created at or after this time. */
	createdAfterMs?: number;
}

/** The filter ready to apply: the company's NIF resolved to the watch-list entity alerts name. */
export interface AlertFilter extends AlertFilterOptions {
	company?: { slug?: string; name?: string };
}

function locatorValue(value: unknown): unknown {
	return value && typeof value === 'object' && 'value' in value
		? (value as { value: unknown }).value
		: value;
}

/** `timeZone`: the workflow's, in which a Created After without an offset is read. */
export function readAlertFilterOptions(
	node: INode,
	options: IDataObject,
	timeZone: string,
	itemIndex = 0,
): AlertFilterOptions {
	const picked = Array.isArray(options.actLabels)
		? options.actLabels.filter((label) => typeof label === 'string')
		: [];
	const typed = typeof options.labels === 'string' ? options.labels.trim() : '';
	const labelText = [...picked, typed].filter((text) => text.length > 0).join(', ');
	const filter: AlertFilterOptions = {
		labels: [...new Set(parseLabelFilter(labelText))],
		labelText,
	};

	const company = locatorValue(options.company);
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

/** Alerts carry the company's name and slug, not its NIF: the watch list links the two. */
export async function resolveAlertFilter(
	this: LibreBorFunctions,
	options: AlertFilterOptions,
	settings: { itemIndex?: number; timeoutMs?: number } = {},
): Promise<AlertFilter> {
	if (!options.nif) return options;
	const entities = await listWatchedEntities.call(this, settings);
	const entity = entities.find(
		(watched) => typeof watched.nif === 'string' && normalizeNif(watched.nif) === options.nif,
	);
	if (!entity) {
		throw new NodeOperationError(
			this.getNode(),
			`The company ${options.nif} is not on your LibreBOR watch list`,
			{
				itemIndex: settings.itemIndex,
				description:
					'LibreBOR only creates alerts for the companies you follow. Follow it first (LibreBOR node, Watch List > Follow), or pick a company from the list.',
			},
		);
	}
	return {
		...options,
		company: {
			slug: typeof entity.slug === 'string' ? entity.slug : undefined,
			name: typeof entity.name === 'string' ? entity.name : undefined,
		},
	};
}

function createdAtMs(alert: LibreBorAlert): number | undefined {
	const ms = typeof alert.created_at === 'string' ? Date.parse(alert.created_at) : NaN;
	return Number.isNaN(ms) ? undefined : ms;
}

function isAboutCompany(
	alert: LibreBorAlert,
	company: NonNullable<AlertFilter['company']>,
): boolean {
	if (company.slug && alert.entity_slug) return alert.entity_slug === company.slug;
	return (
		!!company.name &&
		!!alert.entity_name &&
		normalizeLabel(alert.entity_name) === normalizeLabel(company.name)
	);
}

export function alertPassesFilter(alert: LibreBorAlert, filter: AlertFilter): boolean {
	if (!alertMatchesLabels(alert, filter.labels)) return false;
	if (filter.company && !isAboutCompany(alert, filter.company)) return false;
	if (filter.createdAfterMs !== undefined) {
		const created = createdAtMs(alert);
		if (created === undefined || created < filter.createdAfterMs) return false;
	}
	return true;
}

export const hasAlertFilter = (filter: AlertFilterOptions): boolean =>
	filter.labels.length > 0 || filter.nif !== undefined || filter.createdAfterMs !== undefined;
