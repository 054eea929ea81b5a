import type { INodeProperties } from 'n8n-workflow';

import type { PerOperation } from './node.type';

const FREE = 'It does not spend the prepaid balance.';
const READ_ONLY = `Read-only: it changes nothing. ${FREE}`;

/**
 * What an AI model reads about each operation when the node is a tool of n8n's AI Agent or of an
 * MCP Server Trigger: what it does, what it needs, what it returns and what it costs.
 */
export const toolDescriptions: PerOperation<string> = {
	alert: {
		getMany: `Lists the unread LibreBOR alerts. An alert says that a company on the user's watch list appeared in the BORME, Spain's official commercial-registry bulletin: the company's name and each registry act, with its label (such as Nombramientos for appointments or Revocaciones for dismissals), the people affected and the bulletin's date and PDF link. Reading alerts does not mark them as read. ${FREE}`,
		markAsRead: `Marks one LibreBOR alert as read, given its alert ID (a UUID from the unread alerts), so that it no longer appears among the unread alerts. ${FREE}`,
		markAllAsRead: `Marks every unread LibreBOR alert as read at once, so that none appears among the unread alerts any more. Use it only when the user asks to clear all alerts. ${FREE}`,
	},
	watchlist: {
		follow: `Adds a Spanish company to the LibreBOR watch list, given its NIF (tax ID, such as B64717838), so that LibreBOR creates an alert whenever the company appears in the BORME. Following a company already on the list changes nothing. An invalid NIF is refused before anything is sent. ${FREE}`,
		getMany: `Lists the companies on the LibreBOR watch list, each with its name, NIF and the time it was added. ${FREE}`,
		unfollow: `Removes a company from the LibreBOR watch list, given its NIF, so that no new alerts about it are created. ${FREE}`,
		sync: `Makes the LibreBOR watch list hold the companies of the input items, one NIF per item: follows those missing and, only with Unfollow Others on, unfollows the watched companies the input does not name (it refuses, changing nothing, to unfollow more than Max Unfollows, 10 unless set). Every NIF is checked before anything changes. With Dry Run on it only says what would change. Returns one item per company: nif, name, action (follow, unfollow or keep) and applied. ${FREE}`,
	},
	document: {
		order:
			"Spends money: orders a Spanish company's annual accounts (balance sheet, income statement, notes) for one fiscal year, given the company's NIF and the year, and pays for them from the user's LibreBOR prepaid balance. Use it only when the user asks for these accounts. Returns the order's document_id. Asking again, from this workflow, for the same NIF and year within the order memory window (24 hours unless the workflow changes it) is not paid again: the tool returns the earlier order (reused_order: true) or an error saying that another execution sent it; do not retry then.",
		get: `Gets the status and download link of a document ordered earlier, given its document_id. ${FREE}`,
		download: `Downloads the file of a document ordered earlier, given its document_id, waiting while it is still processing. ${FREE} The document was paid for when it was ordered.`,
	},
	company: {
		search: `Searches Spanish companies in the LibreBOR commercial registry by words of their name (accents and case do not matter), optionally in one province given by name (such as Madrid). Returns one item per company: name, slug, province, status (active, inactive, dissolved, renamed or transformed) and last_update; at most 200 in all. Pass a result's slug to Get Company. ${READ_ONLY}`,
		get: `Gets one Spanish company's registry record, given its NIF (such as B64717838) or its slug (from a search or an alert's entity_slug): name, NIF (null when LibreBOR knows none), status, province, address, capital, purpose, dates of creation, dissolution and extinction, officers and registry acts. ${READ_ONLY}`,
		getIncorporation: `Gets when and where a Spanish company was incorporated, given its NIF or its slug: date, incorporation registry data, name, slug and NIF. ${READ_ONLY}`,
	},
	person: {
		search: `Searches people in the LibreBOR commercial registry by words of their name (accents and case do not matter). Returns one item per person: name, slug, province and last_update; at most 200 in all. Pass a result's slug to Get Person. ${READ_ONLY}`,
		get: `Gets a person's registry record, given their slug (from a person search, or the slug_person of an alert's position): name, province, and their active and past posts in companies (company, role, from and to dates); with Company Status on, each post also has the company's status. ${READ_ONLY}`,
	},
	nif: {
		getInfo: `Checks a Spanish tax identifier (NIF) of a company or a person: valid (true or false) and, for a valid one, whether it is a company's or a person's, the company's legal form and the province where it registered. ${READ_ONLY}`,
	},
};

const BY_NAME_OR_SLUG =
	"The company is given as the node's Company field asks: its NIF (tax ID, such as B64717838), or its slug (a company search result's slug, an alert's entity_slug), which is looked up for its NIF first; a company LibreBOR knows no NIF for is refused with nothing sent.";

/**
 * What a later version tells a model where it does more than the versions before, whose nodes
 * keep their own text: n8n does not save a parameter left at its default, so a new default would
 * reach them too. By operation, then by the version the text starts at.
 */
const LATER_TEXTS: Record<string, Record<number, string>> = {
	'alert.getMany': {
		2: `Lists the unread LibreBOR alerts. An alert says that a company on the user's watch list appeared in the BORME, Spain's official commercial-registry bulletin: the company's name and each registry act, with its label (such as Nombramientos for appointments or Revocaciones for dismissals), its category (officers, ownership, capital, identity, restructuring, distress or other), the people affected and the bulletin's date and PDF link. The Categories option keeps only the acts of the categories picked (distress: insolvency, dissolution, closure; officers: directors appointed or removed). With Output set to one item per person change, each person appointed, re-elected or removed is an item of its own, with change: appointed, reelected, removed or other. Reading alerts does not mark them as read. ${FREE}`,
	},
	'watchlist.follow': {
		3: `Adds a Spanish company to the LibreBOR watch list, so that LibreBOR creates an alert whenever the company appears in the BORME. ${BY_NAME_OR_SLUG} Following a company already on the list changes nothing. An invalid NIF is refused before anything is sent. ${FREE}`,
	},
	'watchlist.unfollow': {
		3: `Removes a company from the LibreBOR watch list, so that no new alerts about it are created. ${BY_NAME_OR_SLUG} ${FREE}`,
	},
	'watchlist.sync': {
		3: `Makes the LibreBOR watch list hold the companies of the input items, one company per item: follows those missing and, only with Unfollow Others on, unfollows the watched companies the input does not name (it refuses, changing nothing, to unfollow more than Max Unfollows, 10 unless set). ${BY_NAME_OR_SLUG} Every company is checked before anything changes. With Dry Run on it only says what would change. Returns one item per company: nif, name, action (follow, unfollow or keep) and applied. ${FREE}`,
	},
	'document.order': {
		3: `Spends money: orders a Spanish company's annual accounts (balance sheet, income statement, notes) for one fiscal year, and pays for them from the user's LibreBOR prepaid balance. ${BY_NAME_OR_SLUG} Use it only when the user asks for these accounts. Returns the order's document_id. Asking again, from this workflow, for the same NIF and year within the order memory window (24 hours unless the workflow changes it) is not paid again: the tool returns the earlier order (reused_order: true) or an error saying that another execution sent it; do not retry then.`,
	},
};

/** Operations that a later version of the node brought: an earlier node shows no description for them. */
const SINCE_VERSION: Record<string, number> = {
	'watchlist.sync': 2,
	'company.search': 3,
	'company.get': 3,
	'company.getIncorporation': 3,
	'person.search': 3,
	'person.get': 3,
	'nif.getInfo': 3,
};

/** The versions from `from` up to the one before `until` (every later one without it), as a display rule. */
function versionsRule(from: number, until?: number) {
	if (until === undefined) return from === 1 ? {} : { '@version': [{ _cnd: { gte: from } }] };
	return { '@version': [{ _cnd: { between: { from, to: until - 1 } } }] };
}

const descriptionField = (
	resource: string,
	operation: string,
	text: string,
	versions = {},
): INodeProperties => ({
	displayName: 'Description',
	name: 'toolDescription',
	type: 'string',
	typeOptions: { rows: 4 },
	required: true,
	default: text,
	description:
		'What the AI model reads about this tool to decide when and how to call it. The default says what this operation does and costs.',
	displayOptions: {
		show: { '@tool': [true], resource: [resource], operation: [operation], ...versions },
	},
});

/**
 * n8n describes a node used as a tool by its `toolDescription` parameter; a node without one gets
 * n8n's automatic "<action> in LibreBOR", which says nothing of what an operation costs. One
 * parameter per operation, shown only in the tool version of the node (`@tool`), so that
 * choosing another operation in the editor brings that operation's text, unless the user wrote
 * their own.
 */
export const toolDescriptionFields: INodeProperties[] = Object.entries(toolDescriptions).flatMap(
	([resource, operations]) =>
		Object.entries(operations).flatMap(([operation, text]) => {
			const key = `${resource}.${operation}`;
			const texts = { [SINCE_VERSION[key] ?? 1]: text, ...LATER_TEXTS[key] };
			const versions = Object.keys(texts).map(Number);
			return versions.map((from, index) =>
				descriptionField(resource, operation, texts[from], versionsRule(from, versions[index + 1])),
			);
		}),
);
