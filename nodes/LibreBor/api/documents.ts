import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import type { RequestSettings } from '../run/nodeRun';
import { apiError, serverMessage, unexpectedBodyError } from '../transport/errors';
import { excerpt } from '../transport/responseBody';
import {
	isPageNotFound,
	libreBorRequest,
	type ApiRequest,
	type ApiResponse,
} from '../transport/request';

/**
 * The spec shows the document endpoints under /documents/ and, in some examples, under
 * /order/. The second form is tried only when the first answers that the route is missing.
 */
const PATHS = {
	primary: {
		order: '/documents/order/',
		document: (id: string) => `/documents/${encodeURIComponent(id)}/`,
	},
	alias: { order: '/order/', document: (id: string) => `/order/${encodeURIComponent(id)}/` },
};

export interface DocumentRecord extends IDataObject {
	status?: string;
	download_link?: string | null;
}

/** The order itself: the company, the fiscal year, and whether LibreBOR also e-mails the user. */
export interface OrderRequest {
	nif: string;
	year: number;
	sendEmail: boolean;
}

/**
 * An order goes to the alias only on a 404 that can only mean the path is unknown to the server
 * (`isPageNotFound`): a JSON 404 (even a bare `{"detail": "Not found."}`) may be about the
 * company or the document, and an order must never be sent a second time on a guess. For reading
 * a document, also a bare JSON `detail` 404 is taken as a missing route: retrying a read costs nothing.
 */
function isMissingReadRoute(response: ApiResponse): boolean {
	if (response.statusCode !== 404) return false;
	if (isPageNotFound(response)) return true;
	const value = response.json as IDataObject | undefined;
	return (
		!!value &&
		typeof value === 'object' &&
		Object.keys(value).length === 1 &&
		typeof value.detail === 'string'
	);
}

/** Sends to the primary path, and to the alias only when the primary route is missing. */
async function sendWithAlias(
	context: IExecuteFunctions,
	send: Readonly<Omit<ApiRequest, 'path'>>,
	paths: [primary: string, alias: string],
	isMissing: (response: ApiResponse) => boolean,
	request: RequestSettings,
): Promise<ApiResponse> {
	const [primary, alias] = paths;
	const response = await libreBorRequest.call(context, { ...send, path: primary }, request);
	if (!isMissing(response)) return response;
	return await libreBorRequest.call(context, { ...send, path: alias }, request);
}

const lostOrderAnswer = (order: OrderRequest) => ({
	message: `The order of the ${order.year} annual accounts of ${order.nif} may have been placed: LibreBOR's answer was lost`,
	description:
		'It was not sent again, so that it is not charged twice. Check the Documents section of the LibreBOR user panel (or the balance) before ordering again; if it is there, use its document ID with the Download operation.',
});

/** LibreBOR's answer to an order: its document ID, or an error that says whether it may be placed. */
export async function orderAnnualAccounts(
	this: IExecuteFunctions,
	order: OrderRequest,
	request: RequestSettings,
): Promise<IDataObject> {
	const form: Record<string, string> = {
		nif: order.nif,
		type: 'accounts',
		year: String(order.year),
	};
	if (order.sendEmail) form.send_email = 'true';
	const lostAnswer = lostOrderAnswer(order);
	const send = { method: 'POST', form, retry: 'never', acceptStatuses: [404], lostAnswer } as const;
	const paths: [string, string] = [PATHS.primary.order, PATHS.alias.order];
	const response = await sendWithAlias(this, send, paths, isPageNotFound, request);
	const answer = response.json as IDataObject | undefined;
	if (response.statusCode === 404) {
		const said = serverMessage(response.body);
		throw apiError(
			response.errorContext,
			404,
			`LibreBOR could not order the annual accounts of ${order.nif} for ${order.year} (404)`,
			`Check that the company and the year exist in the registry.${said ? ` LibreBOR said: "${said}"` : ''}`,
		);
	}
	if (typeof answer?.document_id === 'string' && answer.document_id) return answer;
	if (answer && typeof answer === 'object' && !Array.isArray(answer))
		throw orderNotConfirmed(response, order, answer);
	throw unexpectedBodyError(response.errorContext, response.statusCode, response.body);
}

/**
 * A 2xx answer to an order without a document ID, such as `{"result": "error"}`: the contract does
 * not show what LibreBOR answers when it refuses an order this way, so nothing shows whether it was
 * placed. It is not sent again; the user is told what LibreBOR said and where to check.
 */
function orderNotConfirmed(
	response: ApiResponse,
	order: OrderRequest,
	answer: IDataObject,
): NodeApiError {
	const result =
		typeof answer.result === 'string' ? ` (result "${excerpt(answer.result, 40)}")` : '';
	const said = serverMessage(response.body);
	return apiError(
		response.errorContext,
		response.statusCode,
		`LibreBOR answered the order of the ${order.year} annual accounts of ${order.nif} without a document ID${result}: it may have been placed`,
		`${said ? `LibreBOR said: "${said}". ` : ''}${lostOrderAnswer(order).description}`,
	);
}

export async function getDocument(
	this: IExecuteFunctions,
	documentId: string,
	request: RequestSettings,
): Promise<DocumentRecord> {
	const send = { method: 'GET', retry: 'idempotent', acceptStatuses: [404] } as const;
	const paths: [string, string] = [
		PATHS.primary.document(documentId),
		PATHS.alias.document(documentId),
	];
	const response = await sendWithAlias(this, send, paths, isMissingReadRoute, request);
	if (response.statusCode === 404) {
		throw apiError(
			response.errorContext,
			404,
			`LibreBOR does not know the document ${documentId} (404)`,
			'Check the document ID: it is the "document_id" returned by the Order operation.',
		);
	}
	const record = (response.json as IDataObject | undefined)?.document;
	if (!record || typeof record !== 'object' || Array.isArray(record))
		throw unexpectedBodyError(response.errorContext, response.statusCode, response.body);
	return record as DocumentRecord;
}
