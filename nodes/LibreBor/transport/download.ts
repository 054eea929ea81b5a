import { NodeOperationError, type IBinaryData, type IExecuteFunctions } from 'n8n-workflow';

import { cancelledError } from '../run/cancellation';
import { fileNameFromContentDisposition } from './fileName';
import type { RequestSettings } from '../run/nodeRun';
import { MB } from '../time/units';
import { findErrorCode } from './errorCauses';
import { apiError, type ErrorContext } from './errors';
import { declaredLength, headerText, mediaType, retryAfterMs } from './headers';
import { outboundProtectionRefusal } from './outboundProtection';
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
		throw new NodeOperationError(node, `The download link "${link}" is not a valid URL`, {
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

async function sendGet(
	context: IExecuteFunctions,
	transfer: Transfer,
	url: URL,
	guard: TransferGuard,
): Promise<StreamResponse> {
	return (await context.helpers.httpRequest({
		method: 'GET',
		url: url.toString(),
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: transfer.request.run.timeoutMs,
		abortSignal: guard.signal,
	})) as StreamResponse;
}

/** The 2xx answer for the link, following HTTPS redirects only. */
async function openFile(
	context: IExecuteFunctions,
	transfer: Transfer,
	guard: TransferGuard,
): Promise<{ response: StreamResponse } | Attempt> {
	let url = requireHttps(transfer, transfer.link);
	for (let redirects = 0; ; redirects++) {
		let response: StreamResponse;
		try {
			response = await sendGet(context, transfer, url, guard);
		} catch (error) {
			// No answer before the deadline is a timeout like any other, tried again; a cancel is not.
			if (guard.stoppedBy === 'cancelled') throw transferStopped(transfer, guard.stoppedBy);
			const refusal = outboundProtectionRefusal(error);
			if (refusal !== undefined) throw blockedByN8n(transfer, url, refusal);
			return { error: unreachable(transfer, url, findErrorCode(error)), retryable: true };
		}
		const { statusCode, headers } = response;
		const location = headerText(headers, 'location');
		if (statusCode >= 300 && statusCode < 400 && location && redirects < MAX_REDIRECTS) {
			response.body.destroy();
			url = requireHttps(transfer, new URL(location, url).toString());
			continue;
		}
		if (statusCode >= 200 && statusCode < 300) return { response };

		response.body.destroy();
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
			response.body.destroy();
			throw transferStopped(transfer, 'size', declaredBytes);
		}
		guard.watch(response.body);
		const fileName =
			fileNameFromContentDisposition(headerText(response.headers, 'content-disposition')) ??
			transfer.fallbackFileName;
		const mimeType = mediaType(response.headers);
		try {
			return { value: await context.helpers.prepareBinaryData(response.body, fileName, mimeType) };
		} catch (error) {
			if (guard.stoppedBy) throw transferStopped(transfer, guard.stoppedBy);
			const url = new URL(transfer.link);
			return { error: unreachable(transfer, url, findErrorCode(error)), retryable: true };
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
