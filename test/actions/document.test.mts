import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { accountsFileName } from '../../nodes/LibreBor/actions/document/documentFlow.ts';
import { readBinary } from '../../tools/engine/index.mts';
import {
	jsonOf,
	pairedItemsOf,
	placedDocument,
	runLibreBor,
	useSimulator,
} from '../support/libreBor.mts';
import { order, savedWorkflow } from './orderRuns.mts';

const sim = useSimulator({ documentSizeBytes: 4096 });

describe('Document: Order', () => {
	it('orders the annual accounts and outputs the answer with the NIF and year', async () => {
		const balance = sim().state.balance;
		const result = await runLibreBor(sim(), order({}, { sendEmail: true }));
		expect(result.error).toBeUndefined();
		const [answer] = jsonOf(result);
		expect(answer).toMatchObject({ nif: 'B64717838', year: 2023 });
		expect(answer.document_id).toEqual(expect.any(String));
		expect(sim().state.ordersReceived).toBe(1);
		expect(sim().state.balance).toBeLessThan(balance);
		expect(sim().requestsTo('POST', '/v2/documents/order/')[0].form).toEqual({
			nif: 'B64717838',
			type: 'accounts',
			year: '2023',
			send_email: 'true',
		});
	});

	it('orders nothing when one item of the run has an invalid NIF, naming that item', async () => {
		const result = await runLibreBor(sim(), order({ nif: '={{ $json.nif }}' }), {
			items: [{ nif: 'B64717838' }, { nif: 'nonsense' }],
		});
		expect(result.error?.message).toMatch(/NIF/);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		expect(sim().state.ordersReceived).toBe(0);
	});

	it('asks LibreBOR for no e-mail of the document when Send Email is off', async () => {
		expect((await runLibreBor(sim(), order())).error).toBeUndefined();
		expect(sim().requestsTo('POST', '/v2/documents/order/')[0].form).toEqual({
			nif: 'B64717838',
			type: 'accounts',
			year: '2023',
		});
	});

	it('waits for completion and outputs the status and download link', async () => {
		sim().state.documentProcessingMs = 1200;
		const result = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1 }),
		);
		expect(result.error).toBeUndefined();
		const [answer] = jsonOf(result);
		expect(answer.status).toBe('completed');
		expect(answer.download_link).toMatch(new RegExp(`^${sim().downloadOrigin}/`));
		expect(
			sim().requestsTo('GET', `/v2/documents/${answer.document_id}/`).length,
		).toBeGreaterThanOrEqual(2);
	});

	it('goes from NIF to PDF in one node with Download, as the document leaves processing', async () => {
		sim().state.documentProcessingMs = 1200;
		const result = await runLibreBor(
			sim(),
			order({}, { download: true, pollInterval: 1, binaryPropertyName: 'accounts' }),
		);
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.binary?.accounts).toMatchObject({
			fileName: 'cuentas-anuales-B64717838-2023.pdf',
			mimeType: 'application/pdf',
		});
		const file = await readBinary(item, 'accounts');
		expect(file.length).toBe(4096);
		expect(file.subarray(0, 8).toString()).toBe('%PDF-1.4');
		const downloads = sim().requests.filter((request) => request.origin === 'download');
		expect(downloads).toHaveLength(1);
		expect(downloads[0].headers.authorization).toBeUndefined();
	});

	it('fails past Max Wait with the document ID so the user can resume with Download', async () => {
		sim().state.documentProcessingMs = 60_000;
		const result = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1, maxWait: 2 }),
		);
		const documentId = sim().state.documents[0]?.id;
		expect(documentId).toBeTruthy();
		expect(result.error?.message).toContain(documentId);
		expect((result.error as { description?: string }).description).toContain(
			`document ID ${documentId}`,
		);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('names the placed document when waiting for it fails, so the user resumes instead of ordering again', async () => {
		sim().state.documentProcessingMs = 60_000;
		sim().injectFault({
			method: 'GET',
			path: /^\/v2\/documents\/[^/]+\/$/,
			status: 500,
			retryAfter: 0,
			times: Infinity,
		});
		const result = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1 }),
		);
		const documentId = sim().state.documents[0]?.id;
		expect(result.error?.message).toContain(`Document ${documentId} was ordered`);
		expect((result.error as { description?: string }).description).toMatch(
			/do not order again.*Download operation/,
		);
		expect(sim().state.ordersReceived).toBe(1);
	});

	it('falls back to the /order/ path only when the primary path is missing', async () => {
		sim().state.disablePrimaryDocumentPaths = true;
		const result = await runLibreBor(
			sim(),
			order({}, { waitForCompletion: true, pollInterval: 1 }),
		);
		expect(result.error).toBeUndefined();
		expect(sim().state.ordersReceived).toBe(1);
		expect(sim().requestsTo('POST', '/v2/order/')).toHaveLength(1);
	});
});

describe('Document: Order as an AI agent tool', () => {
	it("says in the editor's operation list that the operation spends money", () => {
		const operation = new LibreBor().description.properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes('document'),
		);
		const orderOption = operation?.options?.find(
			(option) => 'value' in option && option.value === 'order',
		) as { description?: string };
		expect(orderOption.description).toMatch(/^Spends money/);
	});
});

describe('Document: Get', () => {
	const get = (documentId: string): INodeParameters => ({
		resource: 'document',
		operation: 'get',
		documentId,
	});

	it('outputs the document record with its ID', async () => {
		const ordered = await runLibreBor(sim(), order());
		const documentId = String(jsonOf(ordered)[0].document_id);
		const result = await runLibreBor(sim(), get(documentId));
		expect(jsonOf(result)).toEqual([
			{ ...sim().state.viewDocumentById(documentId), document_id: documentId },
		]);
	});

	it('says the document is unknown on 404', async () => {
		const result = await runLibreBor(sim(), get('no-such-document'));
		expect(result.error?.message).toMatch(/does not know the document no-such-document/);
	});

	it.each([
		['a bare "Not found."', { detail: 'Not found.' }, 1],
		['a page that is no JSON', undefined, 1],
		['"Not found." with more', { detail: 'Not found.', code: 'not_found' }, 0],
		['a detail that is no text', { detail: 404 }, 0],
		['an empty object', {}, 0],
		['JSON null', null, 0],
	])(
		'reads a document through /order/ after %s as the 404 of its path only when that may mean a missing route',
		async (_kind, answer, aliasReads) => {
			const { id } = placedDocument(sim());
			sim().injectFault({
				method: 'GET',
				path: `/v2/documents/${id}/`,
				status: 404,
				...(answer === undefined
					? { body: '<html>Not Found</html>', contentType: 'text/html' }
					: { body: JSON.stringify(answer) }),
			});
			const result = await runLibreBor(sim(), get(id));
			expect(sim().requestsTo('GET', `/v2/order/${id}/`)).toHaveLength(aliasReads);
			if (aliasReads) expect(jsonOf(result)[0].document_id).toBe(id);
			else expect(result.error?.message).toBe(`LibreBOR does not know the document ${id} (404)`);
		},
	);

	it.each([
		['no document record', { status: 'completed' }],
		['a document that is text', { document: 'completed' }],
		['a document that is a list', { document: [] }],
		['JSON null', null],
		['an empty body', undefined],
	])('fails, saying what came back, on an answer with %s', async (_kind, answer) => {
		const { id } = placedDocument(sim());
		sim().injectFault({
			method: 'GET',
			path: `/v2/documents/${id}/`,
			status: 200,
			body: answer === undefined ? '' : JSON.stringify(answer),
		});
		const result = await runLibreBor(sim(), get(id));
		expect(result.error?.message).toMatch(/^LibreBOR answered .* instead of the expected JSON$/);
	});
});

describe('Document: Download', () => {
	const download = (documentId: string, options: INodeParameters = {}): INodeParameters => ({
		resource: 'document',
		operation: 'download',
		documentId,
		binaryPropertyName: 'data',
		options: { pollInterval: 1, ...options },
	});

	it('waits while the document is processing, then outputs the file and the record', async () => {
		sim().state.documentProcessingMs = 1200;
		const documentId = String(jsonOf(await runLibreBor(sim(), order()))[0].document_id);
		const result = await runLibreBor(sim(), download(documentId));
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ document_id: documentId, status: 'completed' });
		expect(item.binary?.data.fileName).toBe('cuentas-anuales-B64717838-2023.pdf');
		expect((await readBinary(item)).length).toBe(4096);
	});

	it('with Continue On Fail, fails only the item whose document ID is malformed, and downloads the others', async () => {
		const documentId = String(jsonOf(await runLibreBor(sim(), order()))[0].document_id);
		const result = await runLibreBor(sim(), download('={{ $json.id }}'), {
			items: [{ id: 'not a document/id' }, { id: documentId }],
			continueOnFail: true,
		});
		expect(result.items[0].error?.message).toMatch(/document ID/);
		expect((await readBinary(result.items[1])).length).toBe(4096);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('tries a broken file transfer again', async () => {
		const documentId = String(jsonOf(await runLibreBor(sim(), order()))[0].document_id);
		sim().injectFault({ origin: 'download', drop: true });
		sim().injectFault({ origin: 'download', status: 503, retryAfter: 0 });
		const result = await runLibreBor(sim(), download(documentId));
		expect(result.error).toBeUndefined();
		expect((await readBinary(result.items[0])).length).toBe(4096);
		expect(sim().requests.filter((request) => request.origin === 'download')).toHaveLength(3);
	});

	it('refuses a download link that is not HTTPS', async () => {
		sim().state.downloadLinkOverride = (document) => `http://localhost:1/files/${document.id}`;
		const documentId = String(jsonOf(await runLibreBor(sim(), order()))[0].document_id);
		const result = await runLibreBor(sim(), download(documentId));
		expect(result.error?.message).toMatch(/only HTTPS download links/);
	});

	it('downloads from a link LibreBOR padded with spaces, gives it without them, and takes a blank link for none', async () => {
		const workflow = savedWorkflow();
		const ordered = await runLibreBor(sim(), order(), { workflow });
		const documentId = String(jsonOf(ordered)[0].document_id);
		let link: unknown;
		sim().state.downloadLinkOverride = (document) => {
			link = document.download_link;
			return ` ${document.download_link}\n`;
		};
		expect(
			(await readBinary((await runLibreBor(sim(), download(documentId))).items[0])).length,
		).toBe(4096);
		// The order, reused and waited for, gives the link without them.
		const waited = await runLibreBor(sim(), order({}, { waitForCompletion: true }), { workflow });
		expect(jsonOf(waited)[0]).toMatchObject({ reused_order: true, download_link: link });
		sim().state.downloadLinkOverride = () => '  ';
		const blank = await runLibreBor(sim(), download(documentId));
		expect(blank.error?.message).toBe(
			`Document ${documentId} finished with status "completed" and no download link`,
		);
	});

	it('shows the status of a finished document that has no download link', async () => {
		sim().state.finishedStatus = 'failed';
		sim().state.downloadLinkOverride = () => null;
		const documentId = String(jsonOf(await runLibreBor(sim(), order()))[0].document_id);
		const result = await runLibreBor(sim(), download(documentId));
		expect(result.error?.message).toMatch(/finished with status "failed" and no download link/);
		expect((result.error as { description?: string }).description).toMatch(
			new RegExp(
				`^LibreBOR gave no file for it\\. Check document ID ${documentId} in the Documents section`,
			),
		);
	});
});

describe('Document: the name of a file the download host does not name', () => {
	it.each([
		['B64717838', 2023, 'cuentas-anuales-B64717838-2023.pdf'],
		['B64717838', '2023', 'cuentas-anuales-B64717838-2023.pdf'],
		[undefined, 2023, 'cuentas-anuales-doc-7.pdf'],
		['', 2023, 'cuentas-anuales-doc-7.pdf'],
		[64717838, 2023, 'cuentas-anuales-doc-7.pdf'],
		['B64717838', '', 'cuentas-anuales-doc-7.pdf'],
		['B64717838', 0, 'cuentas-anuales-doc-7.pdf'],
		['B64717838', undefined, 'cuentas-anuales-doc-7.pdf'],
		['B64717838', { year: 2023 }, 'cuentas-anuales-doc-7.pdf'],
		// What LibreBOR's record holds goes into a file name only when it reads as a NIF and a year.
		['B64717838\r\n../../evil', 2023, 'cuentas-anuales-doc-7.pdf'],
		['../B64717838', 2023, 'cuentas-anuales-doc-7.pdf'],
		['B64717838', '2023/..', 'cuentas-anuales-doc-7.pdf'],
		['B64717838', '..2023', 'cuentas-anuales-doc-7.pdf'],
		['B64717838', 20231, 'cuentas-anuales-doc-7.pdf'],
	])('names the accounts of NIF %o and year %o %s', (nif, year, name) => {
		expect(accountsFileName(nif, year, 'doc-7')).toBe(name);
	});
});
