import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
	isValidNif,
	startSimulator,
	type Alert,
	type Simulator,
} from '../../tools/simulator/index.mts';
import { asJson, entryItems } from './alertEntries.mts';
import { personChange } from '../support/actCategoryTable.mts';
import {
	nodeOutputItems,
	nodeOutputJson,
	type ExecutionRun,
} from '../../tools/n8n/executionRun.mts';
import {
	libreBorCredential,
	libreBorNodeType,
	passwordForms,
	libreBor,
} from '../../tools/n8n/libreBorN8n.mts';
import { createN8nWithLibreBor } from './n8nWithLibreBor.mts';
import { executeWorkflow, type WorkflowExecution } from '../../tools/n8n/n8nCli.mts';
import type { N8nUserFolder } from '../../tools/n8n/n8nUserFolder.mts';
import { jsonItem, manualTrigger, splitOut, workflow } from '../../tools/n8n/workflowBuilder.mts';
import { operationsNotIn } from '../../tools/nodeOperations.mts';

const setupTimeoutMs = 600_000;
const workflowId = 'libreBorEveryOp1';

const thisYear = new Date().getUTCFullYear();
const orderOnly = { nif: 'B64717838', year: thisYear - 1 };
const orderAndDownload = { nif: 'A86212420', year: thisYear - 2 };
const invalidNif = 'B12345670';

/** A node of version 3, which has the registry look-ups and the `company` field. */
const libreBor3 = (...args: Parameters<typeof libreBor>) => ({
	...libreBor(...args),
	typeVersion: 3,
});
const byMode = (mode: string, value: string) => ({ __rl: true, mode, value });

/**
 * Every operation of the LibreBOR node, each in the branch of one Manual Trigger, so that one
 * `n8n execute` runs them all. Within a branch the nodes run in order, each once (Execute Once).
 */
const everyOperation = workflow(
	workflowId,
	'LibreBOR: every operation',
	[
		manualTrigger(),
		libreBor('Get Alerts', {
			resource: 'alert',
			operation: 'getMany',
			returnAll: true,
			output: 'alert',
		}),
		{
			...libreBor(
				'Get Person Changes',
				{
					resource: 'alert',
					operation: 'getMany',
					returnAll: true,
					output: 'position',
					options: { categories: ['officers'] },
				},
				{ executeOnce: true },
			),
			typeVersion: 2,
		},
		libreBor(
			'Get Alert Entries',
			{ resource: 'alert', operation: 'getMany', returnAll: false, limit: 3, output: 'entry' },
			{ executeOnce: true },
		),
		libreBor(
			'Mark Alert Read',
			{ resource: 'alert', operation: 'markAsRead', alertId: '={{ $json.alert_id }}' },
			{ executeOnce: true },
		),
		libreBor(
			'Mark All Read',
			{ resource: 'alert', operation: 'markAllAsRead' },
			{ executeOnce: true },
		),

		libreBor('Follow', { resource: 'watchlist', operation: 'follow', nif: 'es A2801-2342' }),
		libreBor(
			'Unfollow',
			{ resource: 'watchlist', operation: 'unfollow', nif: 'B64717838' },
			{ executeOnce: true },
		),
		libreBor(
			'Watch List',
			{ resource: 'watchlist', operation: 'getMany', returnAll: true },
			{ executeOnce: true },
		),
		libreBor(
			'First Watched',
			{ resource: 'watchlist', operation: 'getMany', returnAll: false, limit: 1 },
			{ executeOnce: true },
		),

		libreBor('Order', { resource: 'document', operation: 'order', ...orderOnly }),
		libreBor('Get Document', {
			resource: 'document',
			operation: 'get',
			documentId: '={{ $json.document_id }}',
		}),
		libreBor('Download Document', {
			resource: 'document',
			operation: 'download',
			documentId: '={{ $json.document_id }}',
			binaryPropertyName: 'pdf',
			options: { pollInterval: 1 },
		}),
		libreBor('Order and Download', {
			resource: 'document',
			operation: 'order',
			...orderAndDownload,
			options: { download: true, pollInterval: 1 },
		}),

		jsonItem('Suppliers', { rows: [{ nif: 'A86212420' }, { nif: invalidNif }] }),
		splitOut('One Item per Supplier', 'rows'),
		libreBor(
			'Follow Each',
			{ resource: 'watchlist', operation: 'follow', nif: '={{ $json.nif }}' },
			{ onError: 'continueRegularOutput' },
		),
		{
			...libreBor(
				'Sync Each',
				{
					resource: 'watchlist',
					operation: 'sync',
					nif: '={{ $json.nif }}',
					unfollowOthers: true,
				},
				{ onError: 'continueRegularOutput' },
			),
			typeVersion: 2,
		},

		libreBor3('Search Companies', {
			resource: 'company',
			operation: 'search',
			query: 'brisas',
			limit: 5,
		}),
		libreBor3('Get Company', {
			resource: 'company',
			operation: 'get',
			company: byMode('slug', '={{ $json.slug }}'),
		}),
		libreBor3('Get Incorporation', {
			resource: 'company',
			operation: 'getIncorporation',
			company: byMode('nif', '={{ $json.nif }}'),
		}),
		libreBor3('Search People', { resource: 'person', operation: 'search', query: 'ibañez' }),
		libreBor3('Get Person', {
			resource: 'person',
			operation: 'get',
			person: byMode('slug', '={{ $json.slug }}'),
			options: { companyStatus: true },
		}),
		libreBor3('NIF Info', { resource: 'nif', operation: 'getInfo', nif: 'ES-B64717838' }),
		libreBor3('Follow by Name', {
			resource: 'watchlist',
			operation: 'follow',
			company: byMode('list', 'altamira-infraestructuras'),
		}),
	],
	[
		['Start', 'Search Companies', 'Get Company', 'Get Incorporation'],
		['Start', 'Search People', 'Get Person'],
		['Start', 'NIF Info'],
		['Start', 'Follow by Name'],
		[
			'Start',
			'Get Alerts',
			'Get Person Changes',
			'Get Alert Entries',
			'Mark Alert Read',
			'Mark All Read',
		],
		['Start', 'Follow', 'Unfollow', 'Watch List'],
		['Unfollow', 'First Watched'],
		['Start', 'Order', 'Get Document', 'Download Document'],
		['Start', 'Order and Download'],
		['Start', 'Suppliers', 'One Item per Supplier', 'Follow Each'],
		['One Item per Supplier', 'Sync Each'],
	],
);

describe('the workflow of every operation', () => {
	it('has a node for each operation in the table of operations of the LibreBOR node', () => {
		const covered = everyOperation.nodes
			.filter((node) => node.type === libreBorNodeType)
			.map(({ parameters }) => ({
				resource: String(parameters.resource),
				operation: String(parameters.operation),
			}));
		expect(operationsNotIn(covered)).toEqual([]);
	});
});

describe('every LibreBOR operation run by a real n8n (`n8n execute`)', () => {
	let sim: Simulator;
	let folder: N8nUserFolder;
	let execution: WorkflowExecution;
	let run: ExecutionRun;
	let alertsBefore: Alert[];
	let ordersBefore: number;

	beforeAll(async () => {
		// Documents take a moment to be ready, so that Get sees one processing and the waits really wait.
		sim = await startSimulator({ seed: true, documentProcessingMs: 2000 });
		folder = await createN8nWithLibreBor({
			credentials: [libreBorCredential(sim)],
			workflows: [everyOperation],
		});
		alertsBefore = sim.state.unreadAlerts();
		ordersBefore = sim.state.ordersReceived;

		execution = await executeWorkflow(folder, workflowId);
		if (!execution.run)
			throw new Error(
				`n8n printed no run:\n${execution.result.stdout}\n${execution.result.stderr}`,
			);
		run = execution.run;
	}, setupTimeoutMs);

	afterAll(async () => {
		await folder?.remove();
		await sim?.close();
	});

	it('runs the whole workflow successfully', () => {
		expect(execution.succeeded, execution.result.stdout).toBe(true);
	});

	it('pairs every output item of every LibreBOR node with an input item', () => {
		const libreBorNodes = everyOperation.nodes.filter((node) => node.type === libreBorNodeType);
		for (const node of libreBorNodes) {
			const items = nodeOutputItems(run, node.name);
			expect(items.length, node.name).toBeGreaterThan(0);
			for (const item of items)
				expect(item.pairedItem, node.name).toMatchObject({ item: expect.any(Number) });
		}
	});

	it('alert Get Many outputs the unread alerts as the API returns them', () => {
		expect(nodeOutputJson(run, 'Get Alerts')).toEqual(alertsBefore.map(asJson));
	});

	it('alert Get Many (version 2) with person-change output gives each officer appointed or removed, with the entry and alert alongside', () => {
		const changes = alertsBefore.flatMap((alert) =>
			alert.data
				.filter((entry) => ['Nombramientos', 'Revocaciones'].includes(entry.label))
				.flatMap((entry) =>
					entry.positions.map((position) =>
						asJson(
							personChange(
								alert,
								entry,
								position,
								entry.label === 'Nombramientos' ? 'appointed' : 'removed',
							),
						),
					),
				),
		);

		expect(changes.length).toBeGreaterThan(1);
		expect(nodeOutputJson(run, 'Get Person Changes')).toEqual(changes);
	});

	it('alert Get Many with entry output flattens the entries, with the alert fields alongside, up to the limit', () => {
		const entries = alertsBefore.flatMap(entryItems);

		expect(entries.length).toBeGreaterThan(3);
		expect(nodeOutputJson(run, 'Get Alert Entries')).toEqual(entries.slice(0, 3));
	});

	it('alert Mark as Read marks the alert it is given', () => {
		const alertId = alertsBefore[0].id;

		expect(nodeOutputJson(run, 'Mark Alert Read')).toEqual([
			{ result: 'success', alert_id: alertId },
		]);
		expect(sim.requestsTo('GET', `/v2/alerts/mark_as_read/${alertId}/`)).toHaveLength(1);
	});

	it('alert Mark All as Read leaves no unread alert', () => {
		expect(nodeOutputJson(run, 'Mark All Read')).toEqual([{ result: 'success' }]);
		expect(sim.requestsTo('GET', '/v2/alerts/mark_as_read/all/')).toHaveLength(1);
		expect(sim.state.unreadAlerts()).toEqual([]);
	});

	it('watch list Follow and Unfollow change the watch list and say what changed', () => {
		expect(nodeOutputJson(run, 'Follow')).toEqual([
			{ result: 'success', nif: 'A28012342', change: 'followed' },
		]);
		expect(nodeOutputJson(run, 'Unfollow')).toEqual([
			{ result: 'success', nif: 'B64717838', change: 'unfollowed' },
		]);
		expect(sim.state.watchlist.map((entity) => entity.nif).sort()).toEqual([
			'A28012342',
			'A86212420',
			'J99216582',
		]);
	});

	it('watch list Get Many outputs the watched companies as the API returns them, all or up to the limit', () => {
		const watched = sim.state.watchlist.map(asJson);

		expect(nodeOutputJson(run, 'Watch List')).toEqual(watched);
		expect(nodeOutputJson(run, 'First Watched')).toEqual(watched.slice(0, 1));
	});

	it('document Order places exactly one order per node and outputs its document_id with the NIF and year', () => {
		const [ordered] = nodeOutputJson(run, 'Order');
		const orders = sim.requestsTo('POST', '/v2/documents/order/');

		expect(ordered).toEqual({ result: 'success', document_id: expect.any(String), ...orderOnly });
		expect(
			sim.state.documents.find((document) => document.id === ordered.document_id),
		).toMatchObject(orderOnly);
		expect(orders.filter((request) => request.form.nif === orderOnly.nif)).toHaveLength(1);
		expect(orders.filter((request) => request.form.nif === orderAndDownload.nif)).toHaveLength(1);
		expect(sim.state.ordersReceived).toBe(ordersBefore + 2);
	});

	it('document Get outputs the document record with its document_id', () => {
		const [ordered] = nodeOutputJson(run, 'Order');

		expect(nodeOutputJson(run, 'Get Document')).toEqual([
			{
				id: ordered.document_id,
				document_id: ordered.document_id,
				status: 'processing',
				download_link: null,
				nif: orderOnly.nif,
				year: orderOnly.year,
				type: 'accounts',
				created_at: expect.any(String),
			},
		]);
	});

	it('document Download waits for the document and outputs the PDF in the chosen binary field', () => {
		const [ordered] = nodeOutputJson(run, 'Order');
		const [downloaded] = nodeOutputItems(run, 'Download Document');

		expect(downloaded.json).toMatchObject({
			document_id: ordered.document_id,
			status: 'completed',
		});
		expect(downloaded.binary?.pdf).toMatchObject({
			fileName: `cuentas-anuales-${orderOnly.nif}-${orderOnly.year}.pdf`,
			mimeType: 'application/pdf',
			bytes: sim.state.documentSizeBytes,
		});
	});

	it('document Order with Download waits, downloads and outputs the PDF with the order', () => {
		const [item] = nodeOutputItems(run, 'Order and Download');

		expect(item.json).toEqual({
			result: 'success',
			document_id: expect.any(String),
			...orderAndDownload,
			status: 'completed',
			download_link: expect.stringMatching(/^https:\/\//),
		});
		// It asked again after Poll Interval while the document was processing.
		expect(
			sim.requestsTo('GET', `/v2/documents/${String(item.json.document_id)}/`).length,
		).toBeGreaterThan(1);
		expect(item.binary?.data).toMatchObject({
			fileName: `cuentas-anuales-${orderAndDownload.nif}-${orderAndDownload.year}.pdf`,
			mimeType: 'application/pdf',
			bytes: sim.state.documentSizeBytes,
		});
	});

	it('downloads files without sending the credentials to the download host', () => {
		const downloads = sim.requests.filter((request) => request.origin === 'download');

		expect(downloads).toHaveLength(2);
		for (const request of downloads) expect(request.headers.authorization).toBeUndefined();
	});

	it('with On Error: Continue, turns an invalid NIF into an error item paired with its input', () => {
		expect(isValidNif(invalidNif)).toBe(false);
		const items = nodeOutputItems(run, 'Follow Each');

		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({
			json: { result: 'success', nif: 'A86212420', change: 'already_followed' },
			pairedItem: { item: 0 },
		});
		expect(items[1]).toMatchObject({
			json: { error: expect.stringMatching(/NIF/) },
			pairedItem: { item: 1 },
		});
	});

	it('watch list Sync (version 2), with On Error: Continue, keeps the valid NIF, gives the invalid one an error item and so unfollows nothing', () => {
		const items = nodeOutputItems(run, 'Sync Each');

		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({
			json: {
				nif: 'A86212420',
				name: 'ALTAMIRA INFRAESTRUCTURAS SA',
				action: 'keep',
				applied: false,
			},
			pairedItem: { item: 0 },
		});
		expect(items[1]).toMatchObject({
			json: { error: expect.stringMatching(/The NIF "B12345670" is not valid/) },
			pairedItem: { item: 1 },
		});
		// Only the Unfollow node's own unfollow: the watched J99216582, not in the input, stays.
		expect(
			sim.requestsTo('POST', '/v2/alerts/unfollow/').map((request) => request.form.nif),
		).toEqual(['B64717838']);
	});

	it('company Search, Get and Get Incorporation (version 3) find a company by name and read its records', () => {
		expect(nodeOutputJson(run, 'Search Companies')).toEqual([
			expect.objectContaining({ name: 'BRISAS DEL LLOBREGAT SL', slug: 'brisas-del-llobregat' }),
		]);
		expect(nodeOutputJson(run, 'Get Company')).toEqual([
			expect.objectContaining({ slug: 'brisas-del-llobregat', nif: 'B64717838' }),
		]);
		expect(nodeOutputJson(run, 'Get Incorporation')).toEqual([
			expect.objectContaining({ slug: 'brisas-del-llobregat', nif: 'B64717838' }),
		]);
	});

	it("person Search and Get (version 3) read a person's posts, each with its company's status", () => {
		const [person] = nodeOutputJson(run, 'Get Person');
		expect(person).toMatchObject({ slug: 'ibanez-ortega-jordi' });
		expect(person.active_positions).toEqual([
			expect.objectContaining({
				slug_company: 'altamira-infraestructuras',
				company_status: sim.state.registry.companyBySlug('altamira-infraestructuras')?.status,
			}),
		]);
	});

	it('NIF Get Info (version 3) gives what LibreBOR says of the NIF, normalised', () => {
		expect(nodeOutputJson(run, 'NIF Info')).toEqual([
			expect.objectContaining({ nif: 'B64717838', valid: true }),
		]);
	});

	it('watch list Follow (version 3) takes a company picked by name, resolved to its NIF', () => {
		expect(nodeOutputJson(run, 'Follow by Name')).toEqual([
			{ result: 'success', nif: 'A86212420', change: 'already_followed' },
		]);
		expect(sim.requestsTo('GET', '/v2/company/by-slug/altamira-infraestructuras/')).toHaveLength(2);
	});

	it('never prints the password', () => {
		const printed = [
			execution.result.stdout,
			execution.result.stderr,
			JSON.stringify(execution.result.log),
		].join('\n');

		for (const secret of passwordForms(sim)) expect(printed).not.toContain(secret);
	});
});
