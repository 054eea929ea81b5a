import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { repoRoot } from '../../tools/repoPaths.mts';
import type { Alert, AlertEntry } from '../../tools/simulator/index.mts';

const DOCS = path.join(repoRoot, 'docs', 'act-categories.md');
const TABLE_HEADING = '## Every label and its category';

/**
 * The documented category of every act label, read from the table of docs/act-categories.md: the
 * documentation is what users route their alerts by, so the tests hold the node to it.
 */
export function documentedCategories(): Map<string, string> {
	const text = readFileSync(DOCS, 'utf8');
	const section = text.slice(text.indexOf(TABLE_HEADING));
	const table = new Map<string, string>();
	for (const line of section.split('\n')) {
		const cells = line.split('|').map((cell) => cell.trim());
		// | `category` | label | what it records |
		const category = /^`([a-z]+)`$/.exec(cells[1] ?? '')?.[1];
		if (category && cells.length === 5) table.set(cells[2], category);
	}
	return table;
}

const documented = documentedCategories();

/** The documented category of a label as the parser spells it; labels not documented are `other`. */
export const categoryOfLabel = (label: unknown): string =>
	(typeof label === 'string' && documented.get(label)) || 'other';

/** An alert as the node outputs it since version 2: each entry with its documented category. */
export function withCategories<T extends { data: unknown[] }>(alert: T): T {
	return {
		...alert,
		data: alert.data.map((entry) => ({
			...(entry as IDataObject),
			category: categoryOfLabel((entry as IDataObject).label),
		})),
	};
}

/** The act labels of the BORME parser (bormeparser `acto.py`, ACTO.ALL_KEYWORDS), as it spells them. */
export function parserActLabels(): string[] {
	const fixture = path.join(repoRoot, 'test', 'actions', 'fixtures', 'bormeparserActLabels.json');
	return (JSON.parse(readFileSync(fixture, 'utf8')) as { labels: string[] }).labels;
}

/** What a person-change item holds: the position, what changed, and the entry and alert alongside. */
export function personChange(
	alert: Alert,
	entry: AlertEntry,
	position: object,
	change: string,
): IDataObject {
	return {
		...position,
		change,
		label: entry.label,
		category: categoryOfLabel(entry.label),
		borme: entry.borme,
		company: entry.company,
		announcement: entry.announcement,
		alert_id: alert.id,
		created_at: alert.created_at,
		entity_name: alert.entity_name,
		entity_slug: alert.entity_slug,
		entity_type: alert.entity_type,
	} as IDataObject;
}
