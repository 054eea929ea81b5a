import {
	NodeApiError,
	NodeOperationError,
	type IBinaryData,
	type IExecuteFunctions,
} from 'n8n-workflow';

import { cancelledError } from '../helpers/cancellation';
import { fileNameFromContentDisposition } from '../helpers/fileName';
import { DEFAULT_PACING, pacerOf } from '../helpers/pacer';
import { MB } from '../helpers/units';
import { DEFAULT_TIMEOUT_MS } from './request';
import { outboundProtectionRefusal } from './outboundProtection';
import { withRetries, type TryOutcome } from './retryLoop';
import { parseRetryAfter, RETRYABLE_STATUSES } from './retryPolicy';
import {
	guardTransfer,
	type TransferGuard,
	type TransferStop,
	type WatchedBody,
} from './transferGuard';

const MAX_REDIRECTS = 5;
export const DEFAULT_MAX_DOWNLOAD_MB = 100;

type BinarySource = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

interface StreamResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: BinarySource & { destroy?: () => void };
}

interface DownloadRequest {
	link: string;
	itemIndex: number;
	fallbackFileName: string;
	documentId: string;
	/** The deadline for each whole transfer, headers and body. */
	timeoutMs?: number;
	/** Past this many bytes the transfer stops and the item fails. */
	maxBytes?: number;
}

function requireHttps(context: IExecuteFunctions, link: string, request: DownloadRequest): URL {
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		throw new NodeOperationError(
			context.getNode(),
			`The download link "${link}" is not a valid URL`,
			{
				itemIndex: request.itemIndex,
				description: `Get the document again with the Get operation (document ID ${request.documentId}).`,
			},
		);
	}
	if (url.protocol !== 'https:') {
		throw new NodeOperationError(
			context.getNode(),
			`Refused to download document ${request.documentId} over ${url.protocol}//: only HTTPS download links are followed`,
			{
				itemIndex: request.itemIndex,
				description:
					'The link LibreBOR gave is not HTTPS, so the file could be read or changed in transit. Contact LibreBOR support, or download it yourself from the link in the document record.',
			},
		);
	}
	return url;
}

function headerText(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name];
	if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
	return typeof value === 'string' ? value : undefined;
}

type Attempt = TryOutcome<IBinaryData>;

/** The 2xx answer for the link, following HTTPS redirects only. */
async function openFile(
	context: IExecuteFunctions,
	request: DownloadRequest,
	guard: TransferGuard,
): Promise<{ response: StreamResponse } | Attempt> {
	let url = requireHttps(context, request.link, request);
	for (let redirects = 0; ; redirects++) {
		let response: StreamResponse;
		try {
			response = (await context.helpers.httpRequest({
				method: 'GET',
				url: url.toString(),
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
				abortSignal: guard.signal,
			})) as StreamResponse;
		} catch (error) {
			// No answer before the deadline is a timeout like any other, tried again; a cancel is not.
			if (guard.stoppedBy === 'cancelled') throw transferStopped(context, request, guard.stoppedBy);
			const refusal = outboundProtectionRefusal(error);
			if (refusal !== undefined) throw blockedByN8n(context, request, url, refusal);
			const code = (error as { code?: string }).code;
			return { error: unreachable(context, request, url, code), retryable: true };
		}

		const location = headerText(response.headers, 'location');
		if (
			response.statusCode >= 300 &&
			response.statusCode < 400 &&
			location &&
			redirects < MAX_REDIRECTS
		) {
			response.body.destroy?.();
			url = requireHttps(context, new URL(location, url).toString(), request);
			continue;
		}
		if (response.statusCode >= 200 && response.statusCode < 300) return { response };

		response.body.destroy?.();
		const error = new NodeApiError(
			context.getNode(),
			{ httpCode: String(response.statusCode) },
			{
				message: `The download host answered ${response.statusCode} for document ${request.documentId}`,
				description:
					'Download links can expire. Get the document again with the Get operation for a fresh link, then download it.',
				httpCode: String(response.statusCode),
				itemIndex: request.itemIndex,
			},
		);
		if (!RETRYABLE_STATUSES.has(response.statusCode)) throw error;
		// The pacer paces LibreBOR: a download host's 429 is retried like any other failure.
		const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
		return { error, retryable: true, retryAfterMs };
	}
}

function blockedByN8n(
	context: IExecuteFunctions,
	request: DownloadRequest,
	url: URL,
	refusal: string,
) {
	return new NodeOperationError(
		context.getNode(),
		`n8n's outbound protection blocked the download of document ${request.documentId} from ${url.host}`,
		{
			itemIndex: request.itemIndex,
			description: `Nothing was fetched from that address. ${refusal} A download link or redirect into a private or metadata address is not one LibreBOR should give: check the document with the Get operation, or contact LibreBOR support.`,
		},
	);
}

function unreachable(
	context: IExecuteFunctions,
	request: DownloadRequest,
	url: URL,
	code?: string,
): NodeApiError {
	return new NodeApiError(
		context.getNode(),
		{ networkErrorCode: code ?? 'unknown' },
		{
			message: `Could not download document ${request.documentId} from ${url.host}`,
			description: `The download host did not answer or the transfer broke off${code ? ` (network error ${code})` : ''}; it was retried within a small budget. Try the Download operation again later.`,
			itemIndex: request.itemIndex,
		},
	);
}

const maxBytesOf = (request: DownloadRequest) => request.maxBytes ?? DEFAULT_MAX_DOWNLOAD_MB * MB;

function transferStopped(
	context: IExecuteFunctions,
	request: DownloadRequest,
	reason: TransferStop,
	declaredBytes?: number,
) {
	const what = `The download of document ${request.documentId}`;
	if (reason === 'cancelled') return cancelledError(context, what, request.itemIndex);
	if (reason === 'size') {
		const limitMb = Math.round((maxBytesOf(request) / MB) * 100) / 100;
		const size =
			declaredBytes === undefined
				? 'larger than'
				: `${Math.round((declaredBytes / MB) * 10) / 10} MB, more than`;
		return new NodeOperationError(
			context.getNode(),
			`The file of document ${request.documentId} is ${size} the Max Download Size of ${limitMb} MB`,
			{
				itemIndex: request.itemIndex,
				description:
					'The transfer was stopped and nothing of the file was kept. If a file this large is expected, raise "Max Download Size (MB)" in the node options.',
			},
		);
	}
	const seconds = Math.round((request.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 100) / 10;
	return new NodeOperationError(
		context.getNode(),
		`${what} did not finish within the request timeout of ${seconds} s`,
		{
			itemIndex: request.itemIndex,
			description:
				'The download host sent the file too slowly or stopped sending; nothing of the file was kept. Try the Download operation again later, or raise "Request Timeout (Seconds)" for large files on a slow connection.',
		},
	);
}

async function downloadOnce(
	context: IExecuteFunctions,
	request: DownloadRequest,
): Promise<Attempt> {
	const maxBytes = maxBytesOf(request);
	const guard = guardTransfer({
		deadlineMs: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		maxBytes,
		cancelSignal: context.getExecutionCancelSignal?.(),
	});
	try {
		const opened = await openFile(context, request, guard);
		if (!('response' in opened)) return opened;
		const { response } = opened;
		const declaredBytes = Number(headerText(response.headers, 'content-length'));
		if (declaredBytes > maxBytes) {
			response.body.destroy?.();
			throw transferStopped(context, request, 'size', declaredBytes);
		}
		guard.watch(response.body as unknown as WatchedBody);
		const fileName =
			fileNameFromContentDisposition(headerText(response.headers, 'content-disposition')) ??
			request.fallbackFileName;
		const mimeType =
			headerText(response.headers, 'content-type')?.split(';')[0].trim() || undefined;
		try {
			return { value: await context.helpers.prepareBinaryData(response.body, fileName, mimeType) };
		} catch (error) {
			if (guard.stoppedBy) throw transferStopped(context, request, guard.stoppedBy);
			const code = (error as { code?: string }).code;
			return { error: unreachable(context, request, new URL(request.link), code), retryable: true };
		}
	} finally {
		guard.dispose();
	}
}

/**
 * Streams a public download link into n8n's binary data, without credentials: the link
 * is public and the API password must never reach a download host. HTTPS only, including
 * every redirect. The download is a plain GET, so a failed transfer is tried again within
 * the same small budget as the API's reads.
 */
export async function downloadToBinary(
	this: IExecuteFunctions,
	request: DownloadRequest,
): Promise<IBinaryData> {
	const operation = `download of document ${request.documentId}`;
	const run = {
		context: this,
		errorContext: { node: this.getNode(), itemIndex: request.itemIndex, operation },
		pacer: pacerOf(this, DEFAULT_PACING),
		what: `The ${operation}`,
	};
	return await withRetries(run, async () => await downloadOnce(this, request));
}
