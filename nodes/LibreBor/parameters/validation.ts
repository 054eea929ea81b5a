import { NodeOperationError, type INode } from 'n8n-workflow';

import { explainInvalidNif, normalizeNif, personNifKind } from '../identifiers/nif';
import { UUID_PATTERN } from '../identifiers/uuid';
import { now as clockNow } from '../time/clock';

const DOCUMENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const SLUG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;
export const FIRST_ACCOUNTS_YEAR = 1990;

function invalid(node: INode, itemIndex: number, message: string, description: string) {
	return new NodeOperationError(node, message, { itemIndex, description });
}

function asText(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

/** The NIF normalised as the API expects it, or a NodeOperationError that says what is wrong. */
export function validateNif(node: INode, value: unknown, itemIndex: number): string {
	const raw = asText(value);
	if (!raw) {
		throw invalid(
			node,
			itemIndex,
			'The NIF is empty',
			'Enter the Spanish tax identifier (NIF/CIF) of the company, for example B64717838.',
		);
	}
	const nif = normalizeNif(raw);
	const problem = explainInvalidNif(nif);
	if (problem) {
		throw invalid(
			node,
			itemIndex,
			`The NIF "${raw}" is not valid: ${problem}`,
			'Use a Spanish tax identifier such as B64717838 (companies), 12345678Z (DNI) or X1234567L (NIE). Spaces, dashes and an ES prefix are removed for you.',
		);
	}
	return nif;
}

/** A company as a registry look-up takes it: by NIF (checked and normalised) or by slug. */
export type CompanyReference = { nif: string } | { slug: string };

/**
 * A company given in `mode` (list, nif or slug). A valid NIF is a NIF in every mode, and anything
 * else a slug, but in By NIF a value that reads as a NIF mistyped (five digits or more, or digits
 * only, and no three letters in a row, which no NIF has: B64O17838, B6471783), which is refused as
 * one. A model that fills the field ($fromAI) gets one mode, By NIF where n8n's editor moves an
 * expression off From List, and passes a search result's slug ("h2o", "ab-2000" too) or a NIF alike.
 */
export function validateCompanyReference(
	node: INode,
	{ mode, value }: { mode: string; value: unknown },
	itemIndex: number,
): CompanyReference {
	const nif = normalizeNif(asText(value));
	if (nif && !explainInvalidNif(nif)) return { nif };
	const compact = nif.replace(/^ES/, '');
	const digits = compact.replace(/\D/g, '').length;
	const nifShaped = !/[A-Z]{3}/.test(compact) && (digits >= 5 || digits === compact.length);
	if (mode === 'nif' && nifShaped) return { nif: validateNif(node, value, itemIndex) };
	return { slug: validateSlug(node, value, itemIndex, 'company') };
}

/** Why a person's NIF is refused, and what to do, for what the company's NIF is for. */
const PERSON_NIF_REFUSED = {
	lookUp: {
		why: "the registry looks companies up by a company's NIF",
		todo: "Nothing was sent. Enter the company's NIF (CIF), which starts with a letter (B for an SL, A for an SA), or pick it by name (From List); for a person, use Person > Search, and NIF > Get Info tells what LibreBOR knows of any NIF.",
	},
	accounts: {
		why: 'only companies file annual accounts',
		todo: "No order was sent. Enter the company's NIF (CIF), which starts with a letter (B for an SL, A for an SA), for example B64717838; Company > Search finds a company by its name.",
	},
} as const;

/** A valid NIF that is a company's, as a registry look-up (`lookUp`) or an order of its `accounts` takes it. */
export function validateCompanyNif(
	node: INode,
	nif: string,
	itemIndex: number,
	purpose: keyof typeof PERSON_NIF_REFUSED = 'lookUp',
): string {
	const person = personNifKind(nif);
	if (!person) return nif;
	const { why, todo } = PERSON_NIF_REFUSED[purpose];
	throw invalid(node, itemIndex, `The NIF "${nif}" is a person's (${person}), and ${why}`, todo);
}

/** An identifier that goes into a URL path, checked against its expected form. */
function validateIdentifier(
	node: INode,
	value: unknown,
	itemIndex: number,
	identifier: { label: string; pattern: RegExp; expected: string },
): string {
	const id = asText(value);
	if (!identifier.pattern.test(id)) {
		throw invalid(
			node,
			itemIndex,
			`The ${identifier.label} "${id}" is not valid`,
			identifier.expected,
		);
	}
	return id;
}

export function validateAlertId(node: INode, value: unknown, itemIndex: number): string {
	return validateIdentifier(node, value, itemIndex, {
		label: 'alert ID',
		pattern: UUID_PATTERN,
		expected:
			'An alert ID is a UUID such as 3f1c2b9e-8d4a-4c6b-9f0e-2a7d5c1b8e34; take it from the "id" field of an alert.',
	}).toLowerCase();
}

export function validateDocumentId(node: INode, value: unknown, itemIndex: number): string {
	return validateIdentifier(node, value, itemIndex, {
		label: 'document ID',
		pattern: DOCUMENT_ID_PATTERN,
		expected:
			'Use the "document_id" returned by the Order operation: letters, digits, "-" and "_" only.',
	});
}

/** A company's or person's slug, as LibreBOR's URLs and alerts show it (`entity_slug`, `slug_person`). */
export function validateSlug(
	node: INode,
	value: unknown,
	itemIndex: number,
	of: 'company' | 'person',
): string {
	return validateIdentifier(node, value, itemIndex, {
		label: `${of} slug`,
		pattern: SLUG_PATTERN,
		expected:
			of === 'company'
				? 'A company slug is the last part of its LibreBOR address, such as brisas-del-llobregat (an alert\'s "entity_slug", a search result\'s "slug"). Or pick the company from the list, by name.'
				: 'A person slug is the last part of their LibreBOR address, such as garcia-lopez-maria (an alert position\'s "slug_person", a search result\'s "slug"). Or pick the person from the list, by name.',
	});
}

export function validateYear(
	node: INode,
	value: unknown,
	itemIndex: number,
	now = new Date(clockNow()),
): number {
	const lastYear = now.getUTCFullYear();
	const year = typeof value === 'number' ? value : Number(asText(value));
	if (!Number.isInteger(year) || year < FIRST_ACCOUNTS_YEAR || year > lastYear) {
		throw invalid(
			node,
			itemIndex,
			`The year "${asText(value)}" is not valid`,
			`Enter the fiscal year of the annual accounts as a whole number from ${FIRST_ACCOUNTS_YEAR} to ${lastYear}.`,
		);
	}
	return year;
}
