import { NodeApiError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { unexpectedBodyError } from '../transport/errors';
import { excerpt } from '../transport/responseBody';
import { libreBorRequest, type ApiResponse, type RequestSettings } from '../transport/request';

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

interface OrderRequest {
	nif: string;
	year: number;
	sendEmail: boolean;
}

/**
 * A 404 that can only mean the path is unknown to the server: a page, not a JSON answer.
 * A JSON 404 (even a bare `{"detail": "Not found."}`) may be about the company or the
 * document, and an order must never be sent a second time on a guess.
 */
function isMissingRoute(response: ApiResponse): boolean {
	return response.statusCode === 404 && response.body.kind !== 'json';
}

/** For reading a document, also a bare JSON `detail` 404 is taken as a missing route: retrying a read costs nothing. */
function isMissingReadRoute(response: ApiResponse): boolean {
	if (response.statusCode !== 404) return false;
	if (response.body.kind !== 'json') return true;
	const value = response.json as IDataObject | undefined;
	return (
		!!value &&
		typeof value === 'object' &&
		Object.keys(value).length === 1 &&
		typeof value.detail === 'string'
	);
}

function notFound(
	context: IExecuteFunctions,
	what: string,
	settings: RequestSettings,
): NodeApiError {
	return new NodeApiError(
		context.getNode(),
		{ httpCode: '404' },
		{
			message: `LibreBOR does not know ${what} (404)`,
			description:
				'Check the document ID: it is the "document_id" returned by the Order operation.',
			httpCode: '404',
			itemIndex: settings.itemIndex,
		},
	);
}

export async function orderAnnualAccounts(
	this: IExecuteFunctions,
	order: OrderRequest,
	settings: RequestSettings,
): Promise<IDataObject> {
	const form: Record<string, string> = {
		nif: order.nif,
		type: 'accounts',
		year: String(order.year),
	};
	if (order.sendEmail) form.send_email = 'true';
	const lostAnswer = {
		message: `The order of the ${order.year} annual accounts of ${order.nif} may have been placed: LibreBOR's answer was lost`,
		description:
			'It was not sent again, so that it is not charged twice. Check the Documents section of the LibreBOR user panel (or the balance) before ordering again; if it is there, use its document ID with the Download operation.',
	};
	const send = (path: string) =>
		libreBorRequest.call(this, {
			method: 'POST',
			path,
			form,
			retry: 'never',
			acceptStatuses: [404],
			lostAnswer,
			...settings,
		});

	let response = await send(PATHS.primary.order);
	if (isMissingRoute(response)) response = await send(PATHS.alias.order);
	const answer = response.json as IDataObject | undefined;
	if (response.statusCode === 404) {
		throw new NodeApiError(
			this.getNode(),
			{ httpCode: '404' },
			{
				message: `LibreBOR could not order the annual accounts of ${order.nif} for ${order.year} (404)`,
				description:
					`Check that the company and the year exist in the registry. ${typeof answer?.message === 'string' ? `LibreBOR said: "${answer.message}"` : ''}`.trim(),
				httpCode: '404',
				itemIndex: settings.itemIndex,
			},
		);
	}
	if (
		!answer ||
		typeof answer !== 'object' ||
		typeof answer.document_id !== 'string' ||
		!answer.document_id
	) {
		if (answer && typeof answer === 'object' && !Array.isArray(answer)) {
			throw orderNotConfirmed(
				this,
				order,
				answer,
				response.statusCode,
				lostAnswer.description,
				settings.itemIndex,
			);
		}
		throw unexpectedBodyError(
			{
				node: this.getNode(),
				itemIndex: settings.itemIndex,
				operation: 'POST /documents/order/',
				lostAnswer,
			},
			response.statusCode,
			response.body,
		);
	}
	return answer;
}

/**
 * A 2xx answer to an order without a document ID, such as `{"result": "error"}`: the contract does
 * not show what LibreBOR answers when it refuses an order this way, so nothing shows whether it was
 * placed. It is not sent again; the user is told what LibreBOR said and where to check.
 */
function orderNotConfirmed(
	context: IExecuteFunctions,
	order: OrderRequest,
	answer: IDataObject,
	status: number,
	whatToCheck: string,
	itemIndex?: number,
): NodeApiError {
	const result =
		typeof answer.result === 'string' ? ` (result "${excerpt(answer.result, 40)}")` : '';
	const said = ['message', 'detail', 'error']
		.map((key) => answer[key])
		.find((value) => typeof value === 'string' && value.trim());
	return new NodeApiError(
		context.getNode(),
		{ httpCode: String(status) },
		{
			message: `LibreBOR answered the order of the ${order.year} annual accounts of ${order.nif} without a document ID${result}: it may have been placed`,
			description: `${said ? `LibreBOR said: "${excerpt(String(said))}". ` : ''}${whatToCheck}`,
			httpCode: String(status),
			itemIndex,
		},
	);
}

export async function getDocument(
	this: IExecuteFunctions,
	documentId: string,
	settings: RequestSettings,
): Promise<DocumentRecord> {
	const send = (path: string) =>
		libreBorRequest.call(this, {
			method: 'GET',
			path,
			retry: 'idempotent',
			acceptStatuses: [404],
			...settings,
		});

	let response = await send(PATHS.primary.document(documentId));
	if (isMissingReadRoute(response)) response = await send(PATHS.alias.document(documentId));
	if (response.statusCode === 404) throw notFound(this, `the document ${documentId}`, settings);
	const record = (response.json as IDataObject | undefined)?.document;
	if (!record || typeof record !== 'object' || Array.isArray(record)) {
		throw unexpectedBodyError(
			{
				node: this.getNode(),
				itemIndex: settings.itemIndex,
				operation: `GET /documents/${documentId}/`,
			},
			response.statusCode,
			response.body,
		);
	}
	return record as DocumentRecord;
}
