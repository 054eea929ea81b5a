import { mediaType, type ResponseHeaders } from './headers';

export type ParsedBody =
	| { kind: 'json'; value: unknown }
	| { kind: 'empty' }
	| { kind: 'html'; text: string }
	| { kind: 'text'; text: string };

/** Reads a response body that should be JSON, telling apart the shapes a misbehaving server sends. */
export function parseResponseBody(body: unknown, headers: ResponseHeaders): ParsedBody {
	if (body === undefined || body === null) return { kind: 'empty' };
	if (typeof body !== 'string') {
		const text = Buffer.isBuffer(body) ? body.toString('utf8') : undefined;
		if (text === undefined) return { kind: 'json', value: body };
		return parseResponseBody(text, headers);
	}
	const text = body.trim();
	if (text === '') return { kind: 'empty' };
	const isHtml = mediaType(headers)?.toLowerCase().includes('html');
	if (isHtml || /^<(!doctype|html|head|body)/i.test(text)) {
		return { kind: 'html', text };
	}
	try {
		return { kind: 'json', value: JSON.parse(text) };
	} catch {
		return { kind: 'text', text };
	}
}

/**
 * A short, single-line excerpt of a body for an error message. The text is cut before any pattern
 * runs, and the tag pattern stops at the next `<`, so a hostile body cannot make it backtrack.
 */
export function excerpt(text: string, length = 200): string {
	const cut = text.length > length * 4;
	const flat = text
		.slice(0, length * 4)
		.replace(/<[^<>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length > length || cut ? `${flat.slice(0, length)}…` : flat;
}
