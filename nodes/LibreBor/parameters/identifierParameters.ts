import {
	NodeOperationError,
	type IExecuteFunctions,
	type INodeParameterResourceLocator,
} from 'n8n-workflow';

import {
	validateAlertId,
	validateCompanyReference,
	validateDocumentId,
	validateNif,
	validateSlug,
	type CompanyReference,
} from './validation';

/** Version 1 saves a plain string; version 2 saves a resource locator ({ mode, value }). */
interface LocatorValue {
	mode: string;
	value: unknown;
}

export function isResourceLocator(value: unknown): value is INodeParameterResourceLocator {
	return !!value && typeof value === 'object' && 'mode' in value && 'value' in value;
}

function readLocator(context: IExecuteFunctions, name: string, itemIndex: number): LocatorValue {
	const raw = context.getNodeParameter(name, itemIndex) as unknown;
	return isResourceLocator(raw) ? { mode: raw.mode, value: raw.value } : { mode: 'id', value: raw };
}

export function readAlertId(context: IExecuteFunctions, itemIndex: number): string {
	return validateAlertId(
		context.getNode(),
		readLocator(context, 'alertId', itemIndex).value,
		itemIndex,
	);
}

export function readNif(context: IExecuteFunctions, itemIndex: number): string {
	return validateNif(context.getNode(), readLocator(context, 'nif', itemIndex).value, itemIndex);
}

export type { CompanyReference };

/** The `company` resource locator: a NIF or a slug, whatever its mode (see validateCompanyReference). */
export function readCompanyReference(
	context: IExecuteFunctions,
	itemIndex: number,
): CompanyReference {
	const locator = readLocator(context, 'company', itemIndex);
	return validateCompanyReference(context.getNode(), locator, itemIndex);
}

/** The `person` resource locator: From List and By Slug both give a slug. */
export function readPersonSlug(context: IExecuteFunctions, itemIndex: number): string {
	const { value } = readLocator(context, 'person', itemIndex);
	return validateSlug(context.getNode(), value, itemIndex, 'person');
}

/** Document URLs of the API (…/documents/<id>/ or …/order/<id>/) or a link carrying ?document_id=<id>. */
function documentIdFromUrl(url: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url.trim());
	} catch {
		return undefined;
	}
	const fromQuery = parsed.searchParams.get('document_id');
	if (fromQuery) return fromQuery;
	const segments = parsed.pathname.split('/').filter((segment) => segment.length > 0);
	const at = segments.findIndex((segment) => segment === 'documents' || segment === 'order');
	const candidate = at >= 0 ? segments[at + 1] : undefined;
	if (!candidate || candidate === 'order') return undefined;
	let documentId: string | undefined;
	try {
		documentId = decodeURIComponent(candidate);
	} catch {
		// Badly percent-encoded: no ID can be read from it.
	}
	return documentId;
}

export function readDocumentId(context: IExecuteFunctions, itemIndex: number): string {
	const { mode, value } = readLocator(context, 'documentId', itemIndex);
	if (mode !== 'url') return validateDocumentId(context.getNode(), value, itemIndex);
	const url = typeof value === 'string' ? value : '';
	const documentId = documentIdFromUrl(url);
	if (documentId === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`No document ID can be read from the URL "${url}"`,
			{
				itemIndex,
				description:
					'Paste a LibreBOR document URL such as https://api.librebor.me/v2/documents/<document_id>/, or a link with ?document_id=<document_id>. A file download link does not name its document: use "By ID" with the "document_id" of the Order operation instead.',
			},
		);
	}
	return validateDocumentId(context.getNode(), documentId, itemIndex);
}
