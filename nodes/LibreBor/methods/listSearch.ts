import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { listUnreadAlerts } from '../api/alerts';
import { listWatchedEntities } from '../api/watchlist';
import { labelsOf, normalizeLabel } from '../alerts/alert';
import { LIST_SEARCH_RUN_SETTINGS, startNodeRun } from '../run/nodeRun';

/** Results per page: the editor asks for the next page as the user scrolls. */
const PAGE_SIZE = 100;

/** One page of the results, from the offset the editor's pagination token carries. */
function page(results: INodeListSearchItems[], paginationToken?: string): INodeListSearchResult {
	const offset = Math.max(0, Number.parseInt(paginationToken ?? '0', 10) || 0);
	const next = offset + PAGE_SIZE;
	return {
		results: results.slice(offset, next),
		paginationToken: next < results.length ? String(next) : undefined,
	};
}

function matches(filter: string | undefined, ...texts: Array<string | undefined>): boolean {
	const wanted = normalizeLabel(filter ?? '');
	return (
		wanted === '' ||
		texts.some((text) => text !== undefined && normalizeLabel(text).includes(wanted))
	);
}

/** Unread alerts as "<company> · <labels> · <date>", searchable by company name or act label. */
export async function searchUnreadAlerts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const alerts = await listUnreadAlerts.call(this, {
		run: startNodeRun(this, LIST_SEARCH_RUN_SETTINGS),
	});
	const results: INodeListSearchItems[] = alerts
		.filter((alert) => matches(filter, alert.entity_name, ...labelsOf(alert)))
		.map((alert) => ({
			name: [
				alert.entity_name ?? alert.entity_slug ?? 'Unknown company',
				labelsOf(alert).join(', ') || 'No act label',
				(alert.created_at ?? '').slice(0, 10),
			]
				.filter((part) => part.length > 0)
				.join(' · '),
			value: alert.id,
		}));
	return page(results, paginationToken);
}

/** Watched companies as "<name> (<NIF>)", searchable by name or NIF. */
export async function searchWatchedCompanies(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const entities = await listWatchedEntities.call(this, {
		run: startNodeRun(this, LIST_SEARCH_RUN_SETTINGS),
	});
	const results: INodeListSearchItems[] = [];
	for (const entity of entities) {
		const nif = typeof entity.nif === 'string' ? entity.nif : '';
		const name =
			typeof entity.name === 'string'
				? entity.name
				: typeof entity.slug === 'string'
					? entity.slug
					: nif;
		if (nif && matches(filter, name, nif)) results.push({ name: `${name} (${nif})`, value: nif });
	}
	return page(results, paginationToken);
}
