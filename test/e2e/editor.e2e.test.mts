import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSimulator, type Simulator } from '../../tools/simulator/index.mts';
import {
	libreBorCredential,
	libreBorCredentialRef,
	libreBorNodeType,
	libreBorTriggerNodeType,
	passwordForms,
} from '../../tools/n8n/libreBorN8n.mts';
import { createN8nWithLibreBor } from './n8nWithLibreBor.mts';
import { N8nRestClient } from '../../tools/n8n/n8nRestClient.mts';
import { startN8n, type N8nServer } from '../../tools/n8n/n8nServer.mts';
import type { N8nUserFolder } from '../../tools/n8n/n8nUserFolder.mts';

const setupTimeoutMs = 600_000;
const testTimeoutMs = 120_000;

const wrongCredentialRef = { id: 'librebor-wrong-password', name: 'LibreBOR API (wrong password)' };

const searchListMethodsOf = (property: INodeProperties | undefined) =>
	(property?.modes ?? []).map((mode) => mode.typeOptions?.searchListMethod).filter(Boolean);

describe('the LibreBOR pickers in a real n8n editor', () => {
	let sim: Simulator;
	let folder: N8nUserFolder;
	let server: N8nServer;
	let rest: N8nRestClient;

	beforeAll(async () => {
		sim = await startSimulator();
		const wrong = libreBorCredential(sim, wrongCredentialRef) as { data: Record<string, string> };
		wrong.data.password = 'not-the-password';
		folder = await createN8nWithLibreBor({ credentials: [libreBorCredential(sim), wrong] });
		server = await startN8n(folder);
		rest = await N8nRestClient.signIn(server);
	}, setupTimeoutMs);

	afterAll(async () => {
		await server?.stop();
		await folder?.remove();
		await sim?.close();
	}, testTimeoutMs);

	/** What the editor asks when the user opens a "From List" picker. */
	const listSearch = async (
		methodName: string,
		credential = libreBorCredentialRef,
		filter?: string,
	) =>
		await rest.request<{ results: Array<{ name: string; value: string }> }>(
			'POST',
			'/rest/dynamic-node-parameters/resource-locator-results',
			{
				path: 'parameters.alertId',
				methodName,
				filter,
				nodeTypeAndVersion: { name: libreBorNodeType, version: 2 },
				currentNodeParameters: {
					resource: 'alert',
					operation: 'markAsRead',
					alertId: { __rl: true, mode: 'list', value: '' },
				},
				credentials: { libreBorApi: credential },
			},
		);

	it(
		'serves version 2 of the node with resource locators for alert, company and document',
		async () => {
			const types: INodeTypeDescription[] = await rest.nodeTypes();
			const libreBor = types.filter((type) => type.name === libreBorNodeType);
			const versions = libreBor.flatMap((type) =>
				Array.isArray(type.version) ? type.version : [type.version],
			);
			expect(versions).toEqual(expect.arrayContaining([1, 2]));

			const properties = libreBor.flatMap((type) => type.properties);
			const locator = (name: string) =>
				properties.find(
					(property) => property.name === name && property.type === 'resourceLocator',
				);
			expect(searchListMethodsOf(locator('alertId'))).toEqual(['searchUnreadAlerts']);
			expect(searchListMethodsOf(locator('nif'))).toEqual(['searchWatchedCompanies']);
			expect(locator('documentId')?.modes?.map((mode) => mode.name)).toEqual(['id', 'url']);
			// Version 1 keeps its plain fields for saved workflows.
			expect(
				properties.filter((property) => property.name === 'alertId' && property.type === 'string'),
			).toHaveLength(1);

			const trigger = types.find((type) => type.name === libreBorTriggerNodeType);
			const options = trigger?.properties.find((property) => property.name === 'options');
			const company = (options?.options as INodeProperties[] | undefined)?.find(
				(option) => option.name === 'company',
			);
			expect(searchListMethodsOf(company)).toEqual(['searchWatchedCompanies']);
		},
		testTimeoutMs,
	);

	it(
		"lists the simulator's unread alerts and watched companies for the LibreBOR credential",
		async () => {
			sim.state.follow('A86212420');
			sim.state.follow('B64717838');
			const alerts = [
				sim.state.addAlert({ nif: 'A86212420', label: 'Nombramientos' }),
				sim.state.addAlert({ nif: 'B64717838', label: 'Revocaciones' }),
			];
			const alertResults = await listSearch('searchUnreadAlerts');
			expect(alertResults.results.map((result) => result.value).sort()).toEqual(
				alerts.map((alert) => alert.id).sort(),
			);
			expect(alertResults.results[0].name).toMatch(/ · .+ · \d{4}-\d{2}-\d{2}$/);

			const companies = await listSearch('searchWatchedCompanies');
			expect(companies.results.map((result) => result.name).sort()).toEqual(
				sim.state.watchlist.map((entity) => `${entity.name} (${entity.nif})`).sort(),
			);
			const searched = await listSearch('searchWatchedCompanies', libreBorCredentialRef, 'brisas');
			expect(searched.results).toEqual([
				{ name: 'BRISAS DEL LLOBREGAT SL (B64717838)', value: 'B64717838' },
			]);
		},
		testTimeoutMs,
	);

	/** What the editor asks when the user types a name into a version 3 registry picker. */
	const registrySearch = async (
		methodName: string,
		parameters: { resource: string; operation: string; field: string },
		filter: string,
		paginationToken?: string,
	) =>
		await rest.request<{
			results: Array<{ name: string; value: string }>;
			paginationToken?: string;
		}>('POST', '/rest/dynamic-node-parameters/resource-locator-results', {
			path: `parameters.${parameters.field}`,
			methodName,
			filter,
			paginationToken,
			nodeTypeAndVersion: { name: libreBorNodeType, version: 3 },
			currentNodeParameters: {
				resource: parameters.resource,
				operation: parameters.operation,
				[parameters.field]: { __rl: true, mode: 'list', value: '' },
			},
			credentials: { libreBorApi: libreBorCredentialRef },
		});

	it(
		'searches the registry by name for the Company and Person pickers of version 3, page by page',
		async () => {
			const follow = { resource: 'watchlist', operation: 'follow', field: 'company' };
			const accented = await registrySearch('searchRegistryCompanies', follow, 'PENISCOLA');
			expect(accented.results).toEqual([
				{
					name: 'CONSTRUCCIONES PEÑÍSCOLA SA (Castellón, dissolved)',
					value: 'construcciones-peniscola',
				},
			]);

			sim.state.registry.addMany(12, 'TRANSPORTES RAPIDOS');
			const first = await registrySearch('searchRegistryCompanies', follow, 'transportes');
			expect(first.results).toHaveLength(10);
			const second = await registrySearch(
				'searchRegistryCompanies',
				follow,
				'transportes',
				first.paginationToken,
			);
			expect(second.results.map((result) => result.value)).toEqual([
				'transportes-rapidos-0011',
				'transportes-rapidos-0012',
			]);

			const person = { resource: 'person', operation: 'get', field: 'person' };
			const people = await registrySearch('searchRegistryPeople', person, 'ibanez');
			expect(people.results).toEqual([
				{ name: 'IBAÑEZ ORTEGA JORDI (Barcelona)', value: 'ibanez-ortega-jordi' },
			]);
		},
		testTimeoutMs,
	);

	it(
		"answers a wrong credential with the node's message, never a blank list or the password",
		async () => {
			const failure = await listSearch('searchUnreadAlerts', wrongCredentialRef).then(
				() => '',
				(error: Error) => error.message,
			);
			expect(failure).toMatch(/refused the API user or password \(401\)/);
			for (const secret of passwordForms(sim)) expect(failure).not.toContain(secret);
		},
		testTimeoutMs,
	);
});
