import { NodeOperationError, type IBinaryData, type IExecuteFunctions } from 'n8n-workflow';

import { cancelledError } from '../run/cancellation';
import { fileNameFromContentDisposition } from './fileName';
import type { RequestSettings } from '../run/nodeRun';
import { MB } from '../time/units';
import { findErrorCode } from './errorCauses';
import { apiError, type ErrorContext } from './errors';
import { declaredLength, headerText, mediaType, retryAfterMs } from './headers';
import { outboundProtectionRefusal } from './outboundProtection';
import { excerpt } from './responseBody';
import { withRetries, type TryOutcome } from './retryLoop';
import { RETRYABLE_STATUSES } from './retryPolicy';
import {
	guardTransfer,
	type TransferGuard,
	type TransferStop,
	type WatchedBody,
} from './transferGuard';

const MAX_REDIRECTS = 5;
export const DEFAULT_MAX_DOWNLOAD_MB = 100;

type BinarySource = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/** n8n's full answer to a GET with `encoding: 'stream'`: its body is a readable stream. */
interface StreamResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: BinarySource & WatchedBody;
}

/** A document's file to fetch from its public download link. */
export interface FileDownload {
	link: string;
	documentId: string;
	/** The file name when the download host gives none. */
	fallbackFileName: string;
	/** Past this many bytes the transfer stops and the item fails. */
	maxBytes: number;
}

/** One download as it runs: the file, the run and item it serves, and its errors' context. */
interface Transfer extends FileDownload {
	request: RequestSettings;
	errorContext: ErrorContext;
}

function requireHttps(transfer: Transfer, link: string): URL {
	const { node, itemIndex } = transfer.errorContext;
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		throw new NodeOperationError(node, `The download link "${excerpt(link)}" is not a valid URL`, {
			itemIndex,
			description: `Get the document again with the Get operation (document ID ${transfer.documentId}).`,
		});
	}
	if (url.protocol !== 'https:') {
		throw new NodeOperationError(
			node,
			`Refused to download document ${transfer.documentId} over ${url.protocol}//: only HTTPS download links are followed`,
			{
				itemIndex,
				description:
					'The link LibreBOR gave is not HTTPS, so the file could be read or changed in transit. Contact LibreBOR support, or download it yourself from the link in the document record.',
			},
		);
	}
	return url;
}

type Attempt = TryOutcome<IBinaryData>;

/** One answer of the download host, and how to hang up on it (its body unread). */
interface OpenAnswer {
	response: StreamResponse;
	/** The address it answered for, after any redirect. */
	url: URL;
	close(): void;
}

async function sendGet(
	context: IExecuteFunctions,
	transfer: Transfer,
	url: URL,
	guard: TransferGuard,
): Promise<OpenAnswer> {
	// Each hop its own abort: destroying an unread body leaves its connection open.
	const hop = new AbortController();
	const response = (await context.helpers.httpRequest({
		method: 'GET',
		url: url.toString(),
		// The file as it is: a gzip stream cut short but well framed would decode without an error.
		headers: { 'accept-encoding': 'identity' },
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: transfer.request.run.timeoutMs,
		abortSignal: AbortSignal.any([guard.signal, hop.signal]),
	})) as StreamResponse;
	// Aborting the request ends its body too, and hangs up.
	return { response, url, close: () => hop.abort() };
}

/** Where a redirect points, as text for requireHttps to check (a Location that does not parse included). */
function redirectTarget(location: string, from: URL): string {
	return URL.canParse(location, from.href) ? new URL(location, from).toString() : location;
}

/** The 2xx answer for the link, following HTTPS redirects only. */
async function openFile(
	context: IExecuteFunctions,
	transfer: Transfer,
	guard: TransferGuard,
): Promise<OpenAnswer | Attempt> {
	let url = requireHttps(transfer, transfer.link);
	for (let redirects = 0; ; redirects++) {
		let answer: OpenAnswer;
		try {
			answer = await sendGet(context, transfer, url, guard);
		} catch (error) {
			// No answer before the deadline is a timeout like any other, tried again; a cancel is not.
			if (guard.stoppedBy === 'cancelled') throw transferStopped(transfer, guard.stoppedBy);
			const refusal = outboundProtectionRefusal(error);
			if (refusal !== undefined) throw blockedByN8n(transfer, url, refusal);
			return { error: unreachable(transfer, url, findErrorCode(error)), retryable: true };
		}
		const { statusCode, headers } = answer.response;
		const location = headerText(headers, 'location');
		if (statusCode >= 300 && statusCode < 400 && location && redirects < MAX_REDIRECTS) {
			answer.close();
			url = requireHttps(transfer, redirectTarget(location, url));
			continue;
		}
		if (statusCode >= 200 && statusCode < 300) return answer;

		answer.close();
		const error = apiError(
			transfer.errorContext,
			statusCode,
			`The download host answered ${statusCode} for document ${transfer.documentId}`,
			'Download links can expire. Get the document again with the Get operation for a fresh link, then download it.',
		);
		if (!RETRYABLE_STATUSES.has(statusCode)) throw error;
		// The pacer paces LibreBOR: a download host's 429 is retried like any other failure.
		return { error, retryable: true, retryAfterMs: retryAfterMs(headers) };
	}
}

/** Media types a file host sends for any file. */
const GENERIC_TYPES = new Set(['application/octet-stream', 'binary/octet-stream']);

/** A 200 that is a web page (a link expired, a sign-in), not the document's file. */
function webPageInstead(transfer: Transfer) {
	const { node, itemIndex } = transfer.errorContext;
	return new NodeOperationError(
		node,
		`The download host answered with a web page, not the file of document ${transfer.documentId}`,
		{
			itemIndex,
			description:
				'Download links can expire. Get the document again with the Get operation for a fresh link, then download it.',
		},
	);
}

function blockedByN8n(transfer: Transfer, url: URL, refusal: string) {
	const { node, itemIndex } = transfer.errorContext;
	return new NodeOperationError(
		node,
		`n8n's outbound protection blocked the download of document ${transfer.documentId} from ${url.host}`,
		{
			itemIndex,
			description: `Nothing was fetched from that address. ${refusal} A download link or redirect into a private or metadata address is not one LibreBOR should give: check the document with the Get operation, or contact LibreBOR support.`,
		},
	);
}

function unreachable(transfer: Transfer, url: URL, code?: string) {
	return apiError(
		transfer.errorContext,
		undefined,
		`Could not download document ${transfer.documentId} from ${url.host}`,
		`The download host did not answer or the transfer broke off${code ? ` (network error ${code})` : ''}; it was retried within a small budget. Try the Download operation again later.`,
	);
}

function transferStopped(transfer: Transfer, reason: TransferStop, declaredBytes?: number) {
	const { node, itemIndex } = transfer.errorContext;
	const what = `The download of document ${transfer.documentId}`;
	if (reason === 'cancelled') return cancelledError(node, what, itemIndex);
	if (reason === 'size') {
		const limitMb = Math.round((transfer.maxBytes / MB) * 100) / 100;
		const size =
			declaredBytes === undefined
				? 'larger than'
				: `${Math.round((declaredBytes / MB) * 10) / 10} MB, more than`;
		return new NodeOperationError(
			node,
			`The file of document ${transfer.documentId} is ${size} the Max Download Size of ${limitMb} MB`,
			{
				itemIndex,
				description:
					'The transfer was stopped and nothing of the file was kept. If a file this large is expected, raise "Max Download Size (MB)" in the node options.',
			},
		);
	}
	const seconds = Math.round(transfer.request.run.timeoutMs / 100) / 10;
	return new NodeOperationError(
		node,
		`${what} did not finish within the request timeout of ${seconds} s`,
		{
			itemIndex,
			description:
				'The download host sent the file too slowly or stopped sending; nothing of the file was kept. Try the Download operation again later, or raise "Request Timeout (Seconds)" for large files on a slow connection.',
		},
	);
}

async function downloadOnce(context: IExecuteFunctions, transfer: Transfer): Promise<Attempt> {
	const { run } = transfer.request;
	const guard = guardTransfer({
		deadlineMs: run.timeoutMs,
		maxBytes: transfer.maxBytes,
		cancelSignal: run.cancelSignal,
	});
	try {
		const opened = await openFile(context, transfer, guard);
		if (!('response' in opened)) return opened;
		const { response } = opened;
		const declaredBytes = declaredLength(response.headers);
		if (declaredBytes > transfer.maxBytes) {
			opened.close();
			throw transferStopped(transfer, 'size', declaredBytes);
		}
		const type = mediaType(response.headers)?.toLowerCase();
		if (type === 'text/html') {
			opened.close();
			throw webPageInstead(transfer);
		}
		guard.watch(response.body);
		const fileName =
			fileNameFromContentDisposition(headerText(response.headers, 'content-disposition')) ??
			transfer.fallbackFileName;
		// A type that says nothing of the file: n8n takes it from the file name (a .pdf).
		const mimeType = type === undefined || GENERIC_TYPES.has(type) ? undefined : type;
		try {
			return { value: await context.helpers.prepareBinaryData(response.body, fileName, mimeType) };
		} catch (error) {
			if (guard.stoppedBy) throw transferStopped(transfer, guard.stoppedBy);
			return { error: unreachable(transfer, opened.url, findErrorCode(error)), retryable: true };
		}
	} finally {
		guard.dispose();
	}
}

/**
 * Streams a public download link into n8n's binary data, without credentials: the link
 * is public and the API password must never reach a download host. HTTPS only, including
 * every redirect. The download is a plain GET, so a failed transfer is tried again within
 * the same small budget as the API's reads, paced with the run's other requests.
 */
export async function downloadToBinary(
	this: IExecuteFunctions,
	file: FileDownload,
	request: RequestSettings,
): Promise<IBinaryData> {
	const operation = `download of document ${file.documentId}`;
	const errorContext = { node: this.getNode(), itemIndex: request.itemIndex, operation };
	const transfer: Transfer = { ...file, request, errorContext };
	const retryRun = { errorContext, request, sentOnce: false, what: `The ${operation}` };
	return await withRetries(retryRun, async () => await downloadOnce(this, transfer));
}
