import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export const PRODUCTION_BASE_URL = 'https://api.librebor.me/v2';
export const SANDBOX_BASE_URL = 'https://sandbox-api.librebor.me/v2';

type LibreBorEnvironment = 'production' | 'sandbox' | 'custom';

type BaseUrlResult = { baseUrl: string } | { problem: string };

/** A loop, not `/\/+$/`, which backtracks quadratically on a long run of slashes. */
function withoutTrailingSlashes(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === 47) end--;
	return text.slice(0, end);
}

/** A URL as typed, without what may be a user name and password in it: for a message, which is shown. */
function withoutUserInfo(typed: string): string {
	return typed.replace(/^([a-z][\w+.-]*:\/\/)?.*@/is, '$1…@');
}

/**
 * The API base URL chosen in the credential, without a trailing slash, or the reason
 * a custom URL is refused: it must be HTTPS and end in a version segment, because the
 * Basic credentials must never travel in clear.
 */
export function resolveBaseUrl(credentials: ICredentialDataDecryptedObject): BaseUrlResult {
	const environment = (credentials.environment as LibreBorEnvironment | undefined) ?? 'production';
	if (environment === 'sandbox') return { baseUrl: SANDBOX_BASE_URL };
	if (environment !== 'custom') return { baseUrl: PRODUCTION_BASE_URL };

	const raw = String(credentials.baseUrl ?? '').trim();
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return {
			problem: `The custom base URL "${withoutUserInfo(raw)}" is not a valid URL. Use the form https://host/v2.`,
		};
	}
	if (url.protocol !== 'https:') {
		return {
			problem: `The custom base URL must use https://, not ${url.protocol}//: the API user and password are sent with every request and must not travel in clear.`,
		};
	}
	if (url.username || url.password || url.search || url.hash) {
		return {
			problem:
				'The custom base URL must not contain a user name, password, query or fragment. Use the form https://host/v2.',
		};
	}
	const path = withoutTrailingSlashes(url.pathname);
	if (path.includes('//')) {
		return {
			problem: `The custom base URL has an empty path segment ("//"). Use the form https://${url.host}/v2.`,
		};
	}
	if (!/\/v\d+$/.test(path)) {
		return {
			problem: `The custom base URL must end in the API version segment, for example https://${url.host}/v2.`,
		};
	}
	return { baseUrl: `${url.origin}${path}` };
}

/** A URL that n8n (axios) sends as it is, whatever the request's `baseURL`. */
const ABSOLUTE_URL = /^([a-z][a-z\d+\-.]*:)?\/\//i;

/**
 * Where a request to sign goes: its URL when it is absolute, below its own `baseURL` when it has
 * one, or below the API base URL when it is a bare path, as the credential's test request is.
 */
export function requestTarget(
	request: { url?: string; baseURL?: string },
	baseUrl: string,
): string | undefined {
	const { url } = request;
	if (request.baseURL && !ABSOLUTE_URL.test(url ?? ''))
		return `${withoutTrailingSlashes(request.baseURL)}/${(url ?? '').replace(/^\/+/, '')}`;
	return url?.startsWith('/') && !url.startsWith('//') ? `${baseUrl}${url}` : url;
}

/** True when `target` is the API base URL itself or a path below it, over HTTPS. */
export function isUnderBaseUrl(target: string | undefined, baseUrl: string): target is string {
	let url: URL;
	try {
		url = new URL(target ?? '');
	} catch {
		return false;
	}
	const base = new URL(baseUrl);
	return (
		url.protocol === 'https:' &&
		url.origin === base.origin &&
		(url.pathname === base.pathname || url.pathname.startsWith(`${base.pathname}/`))
	);
}
