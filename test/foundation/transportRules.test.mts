// The transport's pure rules, one answer at a time: the file name a download is saved under, the
// Node error code a failure carries, what n8n's outbound protection said, where a request to sign
// goes, how a body is read and how much of it an error quotes. The transport and download tests reach them through whole requests; here each edge
// is given on its own.
import { describe, expect, it } from 'vitest';

import { fileNameFromContentDisposition } from '../../nodes/LibreBor/transport/fileName.ts';
import { requestTarget } from '../../nodes/LibreBor/transport/baseUrl.ts';
import { findErrorCode } from '../../nodes/LibreBor/transport/errorCauses.ts';
import { outboundProtectionRefusal } from '../../nodes/LibreBor/transport/outboundProtection.ts';
import { excerpt, parseResponseBody } from '../../nodes/LibreBor/transport/responseBody.ts';

const attachment = (name: string) => `attachment; filename="${name}"`;

describe('the file name of a download', () => {
	it('keeps a name of 200 characters whole', () => {
		const name = `${'a'.repeat(196)}.pdf`;
		expect(fileNameFromContentDisposition(attachment(name))).toBe(name);
	});

	it('cuts a longer name to 200 characters, keeping its extension', () => {
		const name = `${'a'.repeat(300)}.pdf`;
		expect(fileNameFromContentDisposition(attachment(name))).toBe(`${'a'.repeat(196)}.pdf`);
	});

	it('cuts a long name without an extension, or with one over 10 characters, at 200', () => {
		const noExtension = `${'a'.repeat(300)}Z`;
		expect(fileNameFromContentDisposition(attachment(noExtension))).toBe('a'.repeat(200));
		const longExtension = `${'a'.repeat(300)}.abcdefghijk`;
		expect(fileNameFromContentDisposition(attachment(longExtension))).toBe('a'.repeat(200));
	});
});

describe('the Node error code of a failure', () => {
	/** An error wrapping the next one through `cause`, for each code given (outermost first). */
	const chainOf = (codes: unknown[]) =>
		codes.reduceRight<unknown>((cause, code) => ({ code, cause }), undefined);

	it('skips codes that are not Node codes, up to five errors deep', () => {
		expect(findErrorCode(chainOf(['not a code', '1_ABC', 'ABC-def', 42, 'ECONNRESET']))).toBe(
			'ECONNRESET',
		);
	});

	it('looks no deeper than five errors', () => {
		expect(findErrorCode(chainOf([1, 2, 3, 4, 5, 'ECONNRESET']))).toBeUndefined();
	});

	it('ends at a cause that is null or no object', () => {
		expect(findErrorCode({ cause: null })).toBeUndefined();
		const notAnObject = Object.assign(() => undefined, { code: 'ECONNRESET' });
		expect(findErrorCode({ cause: notAnObject })).toBeUndefined();
	});
});

describe("what n8n's outbound protection said", () => {
	const refused = (fields: object) => ({ cause: { name: 'SsrfBlockedIpError', ...fields } });

	it('gives its description first, else its message', () => {
		expect(outboundProtectionRefusal(refused({ description: 'private', message: 'm' }))).toBe(
			'private',
		);
		expect(outboundProtectionRefusal(refused({ message: 'blocked' }))).toBe('blocked');
	});

	it('is nothing for any other failure', () => {
		expect(outboundProtectionRefusal(new Error('ECONNRESET'))).toBeUndefined();
	});
});

describe('where a request to sign goes', () => {
	const base = 'https://api.example.test/v1';

	it('is nowhere for a request without a URL', () => {
		expect(requestTarget({}, base)).toBeUndefined();
	});

	it('is below the API base URL for a bare path, and the URL itself when absolute', () => {
		expect(requestTarget({ url: '/alerts' }, base)).toBe(`${base}/alerts`);
		expect(requestTarget({ url: '//other.test/x' }, base)).toBe('//other.test/x');
	});
});

describe('how an answer body is read', () => {
	const json = { 'content-type': 'application/json' };

	it('reads no body as empty, and a body n8n already parsed as it is', () => {
		expect(parseResponseBody(undefined, json)).toEqual({ kind: 'empty' });
		expect(parseResponseBody(null, json)).toEqual({ kind: 'empty' });
		const parsed = { id: 1 };
		expect(parseResponseBody(parsed, json)).toEqual({ kind: 'json', value: parsed });
	});

	it('reads a body of bytes as its text', () => {
		expect(parseResponseBody(Buffer.from(' {"id":1} '), json)).toEqual({
			kind: 'json',
			value: { id: 1 },
		});
		expect(parseResponseBody(Buffer.from('<html>down</html>'), {})).toEqual({
			kind: 'html',
			text: '<html>down</html>',
		});
	});
});

describe('how much of a body an error quotes', () => {
	it('quotes 200 characters at most, on one line, without tags', () => {
		expect(excerpt('a'.repeat(200))).toBe('a'.repeat(200));
		expect(excerpt('a'.repeat(201))).toBe(`${'a'.repeat(200)}…`);
		expect(excerpt('<p>Service\n\n  down</p>')).toBe('Service down');
	});

	it('says it cut a body longer than the 800 characters it reads, even when its text is short', () => {
		expect(excerpt(`down${'<br>'.repeat(199)}`)).toBe('down');
		expect(excerpt(`down${'<br>'.repeat(200)}more`)).toBe('down…');
	});
});
