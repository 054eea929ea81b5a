import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { readBinary } from '../../tools/engine/index.mts';
import { pdfLikeBytes, type Fault } from '../../tools/simulator/index.mts';
import { placedDocument, runLibreBor, useSimulator } from '../support/libreBor.mts';

// What the download host may answer for a document's public link: redirects, statuses, broken
// connections, and the file name it gives. The link is the document's own (/files/<token>).
const sim = useSimulator({ documentSizeBytes: 4096 });

/** A finished document, placed with the simulator directly, and its download link. */
function finishedDocument(): { documentId: string; link: string } {
	const { id, downloadToken } = placedDocument(sim());
	return { documentId: id, link: `${sim().downloadOrigin}/files/${downloadToken}` };
}

const download = (documentId: string, options: IDataObject = {}) =>
	runLibreBor(sim(), {
		resource: 'document',
		operation: 'download',
		documentId,
		binaryPropertyName: 'data',
		options: { pollInterval: 1, ...options },
	});

/** The file the download host serves for a document. */
const servedFile = () => pdfLikeBytes(sim().state.documentSizeBytes);
const downloadRequests = () => sim().requestsTo('GET', /^\//, 'download');
const onHost = (fault: Fault) => sim().injectFault({ origin: 'download', ...fault });
const descriptionOf = (error: unknown) =>
	String((error as { description?: string } | undefined)?.description);

describe('Download host: redirects', () => {
	it.each([300, 301, 302, 303, 307, 308])(
		'follows a %i redirect of the download link to the file',
		async (status) => {
			const { documentId, link } = finishedDocument();
			onHost({ status, headers: { location: link }, body: '' });
			const result = await download(documentId);
			expect(result.error).toBeUndefined();
			expect(result.items[0].binary?.data.fileName).toBe('cuentas-anuales-B64717838-2023.pdf');
			expect(downloadRequests()).toHaveLength(2);
		},
	);

	it('follows up to five hops, and fails on a sixth redirect', async () => {
		const { documentId, link } = finishedDocument();
		onHost({ status: 302, headers: { location: link }, body: '', times: 5 });
		expect((await download(documentId)).error).toBeUndefined();
		expect(downloadRequests()).toHaveLength(6);

		onHost({ status: 302, headers: { location: link }, body: '', times: 6 });
		const result = await download(documentId);
		expect(result.error?.message).toBe(`The download host answered 302 for document ${documentId}`);
		expect(downloadRequests()).toHaveLength(6 + 6);
	});

	it.each([300, 302])('fails on a %i without a Location, naming the status', async (status) => {
		const { documentId } = finishedDocument();
		onHost({ status, body: '' });
		const result = await download(documentId);
		expect(result.error?.message).toBe(
			`The download host answered ${status} for document ${documentId}`,
		);
		expect(descriptionOf(result.error)).toMatch(/Download links can expire.*Get operation/);
		expect(downloadRequests()).toHaveLength(1);
	});

	it.each([
		['a 200 with the file', 200, true],
		['a 400', 400, false],
		['a 404', 404, false],
	])('does not follow a Location on %s', async (_answer, status, isFile) => {
		const { documentId } = finishedDocument();
		// Followed, the Location would lead to a file the host does not have. The file's answer is
		// the host's own, with the header added; the others replace it.
		onHost({ ...(isFile ? {} : { status }), headers: { location: '/files/elsewhere' } });
		const result = await download(documentId);
		if (isFile) expect(await readBinary(result.items[0])).toEqual(await servedFile());
		else
			expect(result.error?.message).toBe(
				`The download host answered ${status} for document ${documentId}`,
			);
		expect(downloadRequests().map((request) => request.path)).not.toContain('/files/elsewhere');
	});
});

describe('Download host: failures', () => {
	it.each([400, 403, 404, 410])('fails at once on a %i, without trying again', async (status) => {
		const { documentId } = finishedDocument();
		onHost({ status, times: Infinity });
		const result = await download(documentId);
		expect(result.error?.message).toBe(
			`The download host answered ${status} for document ${documentId}`,
		);
		expect(descriptionOf(result.error)).toMatch(/Download links can expire/);
		// The error names the item and the node, as n8n shows them beside it.
		expect(result.error?.context.itemIndex).toBe(0);
		const { node } = result.error as { node?: { name: string } };
		expect(node?.name).toBe(result.run.data.resultData.lastNodeExecuted);
		expect(downloadRequests()).toHaveLength(1);
	});

	it.each([
		...[429, 500, 502, 503, 504].map((status) => [`a ${status}`, { status, retryAfter: 0 }]),
		['a dropped connection', { drop: true }],
	] as Array<[string, Fault]>)('tries %s again and downloads the file', async (_answer, fault) => {
		const { documentId } = finishedDocument();
		onHost(fault);
		const result = await download(documentId);
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.data.fileName).toBe('cuentas-anuales-B64717838-2023.pdf');
		expect(await readBinary(result.items[0])).toEqual(await servedFile());
		expect(downloadRequests()).toHaveLength(2);
	});

	it('waits for the Retry-After of a download host before trying again', async () => {
		const { documentId } = finishedDocument();
		onHost({ status: 503, retryAfter: 1 });
		const started = Date.now();
		expect((await download(documentId)).error).toBeUndefined();
		const [first, second] = downloadRequests();
		expect(second.time - first.time).toBeGreaterThanOrEqual(1000);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
	});

	it('tries a file cut off mid-transfer again and downloads it whole', async () => {
		const { documentId } = finishedDocument();
		onHost({ drop: true, afterHandling: true });
		const result = await download(documentId);
		expect(result.error).toBeUndefined();
		expect(await readBinary(result.items[0])).toEqual(await servedFile());
		expect(downloadRequests()).toHaveLength(2);
	});

	it.each([
		['drops the connection', { drop: true }],
		['cuts the file off', { drop: true, afterHandling: true }],
	])(
		'names the host and the network error when it %s on every try',
		async (_what, fault) => {
			const { documentId } = finishedDocument();
			onHost({ ...fault, times: Infinity });
			const result = await download(documentId);
			expect(result.error?.message).toBe(
				`Could not download document ${documentId} from ${new URL(sim().downloadOrigin).host}`,
			);
			expect(descriptionOf(result.error)).toMatch(
				/did not answer or the transfer broke off \(network error \w+\); it was retried/,
			);
			expect(downloadRequests()).toHaveLength(4);
		},
		15_000,
	);

	it('tries again a download host that sends nothing before the request timeout', async () => {
		const { documentId } = finishedDocument();
		onHost({ delayMs: 5000 });
		const result = await download(documentId, { timeout: 1 });
		expect(result.error).toBeUndefined();
		expect(downloadRequests()).toHaveLength(2);
	}, 15_000);
});

describe('Download host: a cancel', () => {
	it('stops a download at the cancel, even on its last try, and says so', async () => {
		const { documentId, link } = finishedDocument();
		onHost({ drop: true, times: 3 });
		// The fourth and last try reaches the host, which holds its answer back.
		const lastTry = new Promise<void>((resolve) =>
			sim().onRequest({ origin: 'download', path: new URL(link).pathname }, () => resolve()),
		);
		onHost({ afterHandling: true, delayMs: 10_000 });
		const result = await runLibreBor(
			sim(),
			{ resource: 'document', operation: 'download', documentId, binaryPropertyName: 'data' },
			{ cancelWhen: lastTry },
		);
		expect(result.error?.message).toBe(
			`The download of document ${documentId} was stopped because the execution was cancelled`,
		);
		expect(descriptionOf(result.error)).toBe(
			'Nothing more was sent for this item after the cancel.',
		);
		// Not the held answer: had the cancel not ended the last try, it would have downloaded the file.
		expect(downloadRequests()).toHaveLength(4);
	}, 20_000);
});

describe('Download host: links', () => {
	it('fails on a download link that is not a URL, pointing to the Get operation', async () => {
		sim().state.downloadLinkOverride = () => 'not a link';
		const { documentId } = finishedDocument();
		const result = await download(documentId);
		expect(result.error?.message).toBe('The download link "not a link" is not a valid URL');
		expect(descriptionOf(result.error)).toBe(
			`Get the document again with the Get operation (document ID ${documentId}).`,
		);
	});

	it('quotes at most 200 characters of a download link that is not a URL', async () => {
		sim().state.downloadLinkOverride = () => `not a link ${'x'.repeat(100_000)}`;
		const { documentId } = finishedDocument();
		const result = await download(documentId);
		expect(result.error?.message).toMatch(
			/^The download link "not a link x+…?" is not a valid URL$/,
		);
		expect(result.error?.message.length).toBeLessThan(300);
	});

	it('quotes at most 40 characters of the status of a document finished without a link', async () => {
		sim().state.finishedStatus = `done ${'x'.repeat(100_000)}`;
		sim().state.downloadLinkOverride = () => null;
		const { documentId } = finishedDocument();
		const result = await download(documentId);
		expect(result.error?.message).toMatch(
			new RegExp(`^Document ${documentId} finished with status "done x+…?" and no download link$`),
		);
		expect(result.error?.message.length).toBeLessThan(150);
	});

	it('fails on a redirect to a Location that is not a URL, as on such a link', async () => {
		const { documentId } = finishedDocument();
		onHost({ status: 302, headers: { location: 'https://[bad' }, body: '' });
		const result = await download(documentId);
		expect(result.error?.message).toBe('The download link "https://[bad" is not a valid URL');
	});

	it('says why a plain http:// download link is refused', async () => {
		sim().state.downloadLinkOverride = (document) => `http://localhost:1/files/${document.id}`;
		const { documentId } = finishedDocument();
		const result = await download(documentId);
		expect(descriptionOf(result.error)).toMatch(/not HTTPS, so the file could be read or changed/);
	});
});

describe('Download host: file names', () => {
	const downloadedAs = async (contentDisposition: string) => {
		const { documentId } = finishedDocument();
		onHost({ afterHandling: true, headers: { 'content-disposition': contentDisposition } });
		const result = await download(documentId);
		expect(result.error).toBeUndefined();
		return String(result.items[0].binary?.data.fileName);
	};

	it.each([
		["attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", 'résumé.pdf'],
		["attachment; filename*=utf-8''r%C3%A9sum%C3%A9.pdf; size=4096", 'résumé.pdf'],
		['attachment; filename*= UTF-8\'\'r%C3%A9sum%C3%A9.pdf; filename="plain.pdf"', 'résumé.pdf'],
		['attachment; filename* =UTF-8\'\'r%C3%A9sum%C3%A9.pdf; filename="plain.pdf"', 'résumé.pdf'],
		['attachment; filename="plain.pdf"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf', 'résumé.pdf'],
		['attachment; filename*=UTF-8\'\'"quoted.pdf" ; size=4096', 'quoted.pdf'],
		['attachment; filename*=UTF-8\'\'say"cheese".pdf', 'say"cheese".pdf'],
		["attachment; filename*=UTF-8''report.pdf%20%20", 'report.pdf'],
		['attachment; filename*=UTF-8\'\'..%2F..; filename="plain.pdf"', 'plain.pdf'],
		['attachment; filename*=UTF-8\'\'%E0%A4%A; filename="plain.pdf"', 'plain.pdf'],
		['attachment; filename="quoted name.pdf"', 'quoted name.pdf'],
		['attachment; filename=unquoted.pdf', 'unquoted.pdf'],
		['attachment; filename=unquoted.pdf ; size=4096', 'unquoted.pdf'],
		['attachment; filename = "spaced.pdf"', 'spaced.pdf'],
		["attachment; filename*=UTF-8'es'r%C3%A9sum%C3%A9.pdf", 'résumé.pdf'],
		["attachment; filename*=Utf-8''r%C3%A9sum%C3%A9.pdf", 'résumé.pdf'],
		["attachment; filename*=iso-8859-1''r%E9sum%E9.pdf", 'résumé.pdf'],
		['attachment; filename="say \\"cheese\\".pdf"', 'say "cheese".pdf'],
		// A right-to-left override would show "cuentasfdp.exe" as "cuentasexe.pdf".
		["attachment; filename*=UTF-8''cuentas%E2%80%AEfdp.exe", 'cuentasfdp.exe'],
	])('takes the file name of %s', async (header, expected) => {
		expect(await downloadedAs(header)).toBe(expected);
	});

	const long = 'a'.repeat(300);
	it.each([
		['keeps a name of 200 characters whole', `${'b'.repeat(196)}.pdf`, `${'b'.repeat(196)}.pdf`],
		[
			'keeps an extension of up to ten characters',
			`${long}.abcdefghi`,
			`${'a'.repeat(190)}.abcdefghi`,
		],
		['cuts a longer "extension" like the rest', `${long}.abcdefghij`, 'a'.repeat(200)],
		['cuts a name without an extension at 200', `${long}z`, 'a'.repeat(200)],
	])('%s', async (_case, name, expected) => {
		expect(await downloadedAs(`attachment; filename="${name}"`)).toBe(expected);
	});
});

describe('Download host: what it answers with', () => {
	it('asks for the file as it is, not compressed: a gzip stream cut short would decode without an error', async () => {
		const { documentId } = finishedDocument();
		expect((await download(documentId)).error).toBeUndefined();
		expect(downloadRequests()[0].headers['accept-encoding']).toBe('identity');
	});

	it('stores a PDF the host sends as application/octet-stream as a PDF, from its name', async () => {
		const { documentId } = finishedDocument();
		onHost({ afterHandling: true, headers: { 'content-type': 'application/octet-stream' } });
		const result = await download(documentId);
		expect(result.items[0].binary?.data).toMatchObject({
			mimeType: 'application/pdf',
			fileName: 'cuentas-anuales-B64717838-2023.pdf',
		});
	});

	it('keeps a type the host names for the file, whatever its name', async () => {
		const { documentId } = finishedDocument();
		onHost({ afterHandling: true, headers: { 'content-type': 'application/zip' } });
		const result = await download(documentId);
		expect(result.items[0].binary?.data.mimeType).toBe('application/zip');
	});

	it('fails on a web page answered instead of the file (a link expired), pointing to Get', async () => {
		const { documentId } = finishedDocument();
		onHost({ status: 200, contentType: 'text/html', body: '<html>Link expired</html>' });
		const result = await download(documentId);
		expect(result.error?.message).toBe(
			`The download host answered with a web page, not the file of document ${documentId}`,
		);
		expect(descriptionOf(result.error)).toMatch(/Get the document again/);
	});

	it("names the file by the document ID when LibreBOR's record holds no NIF that reads as one", async () => {
		const placed = placedDocument(sim());
		placed.nif = 'B64717838\r\n../../evil';
		onHost({ afterHandling: true, headers: { 'content-disposition': 'inline' } });
		const result = await download(placed.id);
		expect(result.items[0].binary?.data.fileName).toBe(`cuentas-anuales-${placed.id}.pdf`);
	});
});
