import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { companyNifs } from '../../scripts/bench/nifs.mts';
import { runListSearch } from '../../tools/engine/index.mts';
import { answerWatchList, credentialsFor, useSimulator } from '../support/libreBor.mts';

const sim = useSimulator();

const search = async (
	method: string,
	filter?: string,
	credentials?: IDataObject,
	paginationToken?: string,
) =>
	await runListSearch({
		nodeType: new LibreBor(),
		method,
		filter,
		paginationToken,
		credentials: credentialsFor(sim(), credentials),
		parameters: { resource: 'alert', operation: 'markAsRead' },
	});

const failureOf = async (method: string, credentials?: IDataObject) =>
	await search(method, undefined, credentials).then(
		() => undefined,
		(error: unknown) => error as { message: string; description?: string },
	);

describe('Alert list (Mark as Read, From List)', () => {
	it('lists the unread alerts as "<company> · <labels> · <date>" with the alert ID as value', async () => {
		const alert = sim().state.addAlert({
			nif: 'B64717838',
			labels: ['Revocaciones', 'Nombramientos'],
			created_at: '2026-03-04T10:00:00.000Z',
		});
		const { results } = await search('searchUnreadAlerts');
		expect(results).toEqual([
			{
				name: 'BRISAS DEL LLOBREGAT SL · Revocaciones, Nombramientos · 2026-03-04',
				value: alert.id,
			},
		]);
	});

	it('keeps the alerts whose company or act label contains the search text, accents and case ignored', async () => {
		const byLabel = sim().state.addAlert({ nif: 'A86212420', label: 'Situación concursal' });
		const byCompany = sim().state.addAlert({ nif: 'B64717838', label: 'Nombramientos' });
		sim().state.addAlert({ nif: 'J99216582', label: 'Revocaciones' });
		expect((await search('searchUnreadAlerts', 'SITUACION')).results.map((r) => r.value)).toEqual([
			byLabel.id,
		]);
		expect((await search('searchUnreadAlerts', 'brisas')).results.map((r) => r.value)).toEqual([
			byCompany.id,
		]);
	});

	it('lists an alert whose bulletin entries include a null one', async () => {
		const alert = sim().state.addAlert({ label: 'Nombramientos' });
		sim().injectFault({
			method: 'GET',
			path: '/v2/alerts/',
			status: 200,
			body: JSON.stringify([{ ...alert, data: [null, ...(alert.data ?? [])] }]),
			contentType: 'application/json',
		});
		const { results } = await search('searchUnreadAlerts');
		expect(results).toEqual([
			expect.objectContaining({ value: alert.id, name: expect.stringContaining('Nombramientos') }),
		]);
	});

	it('names an alert LibreBOR lists without a company name, act label or date by what it has', async () => {
		const bySlug = sim().state.addAlert({
			nif: 'B64717838',
			data: [{ label: 7 }],
			created_at: '2026-03-04T10:00:00.000Z',
			extra: { entity_name: undefined },
		});
		const unknown = sim().state.addAlert({
			extra: { entity_name: undefined, entity_slug: undefined, created_at: undefined },
		});
		const { results } = await search('searchUnreadAlerts');
		expect(results).toEqual([
			{ name: 'Unknown company · Nombramientos', value: unknown.id },
			{ name: `${bySlug.entity_slug} · No act label · 2026-03-04`, value: bySlug.id },
		]);
		expect((await search('searchUnreadAlerts', 'nombra')).results.map((r) => r.value)).toEqual([
			unknown.id,
		]);
	});

	it('is empty, not an error, when nothing is unread', async () => {
		expect((await search('searchUnreadAlerts')).results).toEqual([]);
	});
});

describe('Company list (Unfollow, Order, From List)', () => {
	it('lists the watched companies as "<name> (<NIF>)" with the NIF as value', async () => {
		sim().state.follow('B64717838');
		sim().state.follow('A86212420');
		const { results } = await search('searchWatchedCompanies');
		expect(results).toEqual(
			expect.arrayContaining([
				{ name: 'BRISAS DEL LLOBREGAT SL (B64717838)', value: 'B64717838' },
				{ name: 'ALTAMIRA INFRAESTRUCTURAS SA (A86212420)', value: 'A86212420' },
			]),
		);
		expect(results).toHaveLength(2);
	});

	it.each([
		[250, [100, 100, 50]],
		[200, [100, 100]],
	])(
		'lists a watch list of %i a page of 100 at a time, as the editor scrolls',
		async (count, sizes) => {
			const nifs = companyNifs(count);
			nifs.forEach((nif) => sim().state.follow(nif));
			const pages: string[][] = [];
			let token: string | undefined;
			do {
				const page = await search('searchWatchedCompanies', undefined, undefined, token);
				pages.push(page.results.map((result) => String(result.value)));
				token = page.paginationToken as string | undefined;
			} while (token !== undefined);
			expect(pages.map((page) => page.length)).toEqual(sizes);
			expect(pages.flat()).toEqual(sim().state.watchlist.map((entity) => entity.nif));
		},
	);

	it('names a company LibreBOR lists without a name by its slug or NIF, and leaves out entries without a NIF', async () => {
		const entities = [
			{ type: 'person', name: 'GARCIA LOPEZ MARIA', slug: 'garcia-lopez-maria' },
			{ type: 'company', name: 'NUMBERED SL', nif: 64717838 },
			{ type: 'company', slug: 'brisas-del-llobregat-sl', nif: 'B64717838' },
			{ type: 'company', nif: 'A86212420' },
		];
		answerWatchList(sim(), entities);
		expect((await search('searchWatchedCompanies')).results).toEqual([
			{ name: 'brisas-del-llobregat-sl (B64717838)', value: 'B64717838' },
			{ name: 'A86212420 (A86212420)', value: 'A86212420' },
		]);
	});

	it('searches by name or NIF', async () => {
		sim().state.follow('B64717838');
		sim().state.follow('A86212420');
		expect(
			(await search('searchWatchedCompanies', 'altamira')).results.map((r) => r.value),
		).toEqual(['A86212420']);
		expect((await search('searchWatchedCompanies', 'b647')).results.map((r) => r.value)).toEqual([
			'B64717838',
		]);
	});
});

describe.each(['searchUnreadAlerts', 'searchWatchedCompanies'])('%s refusals', (method) => {
	it("fails with the node's message when the credential is wrong (401)", async () => {
		const failure = await failureOf(method, { password: 'wrong-password' });
		expect(failure?.message).toMatch(/refused the API user or password \(401\)/);
		expect(failure?.description).toMatch(/API > Credentials/);
	});

	it('fails with the subscription hint when the account has no beta access (403)', async () => {
		sim().injectFault({
			path: method === 'searchUnreadAlerts' ? '/v2/alerts/' : '/v2/alerts/following/',
			status: 403,
			times: Infinity,
		});
		const failure = await failureOf(method);
		expect(failure?.message).toMatch(/refused access to this feature \(403\)/);
		expect(failure?.description).toMatch(/API subscription/);
	});
});
