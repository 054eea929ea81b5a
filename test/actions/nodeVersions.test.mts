import { NodeHelpers, type INode, type INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { descriptionForVersion } from '../support/versionedDescription.mts';
import versionOneDescription from './fixtures/libreBorVersion1Description.json' with { type: 'json' };
import versionTwoDescription from './fixtures/libreBorVersion2Description.json' with { type: 'json' };
import versionThreeDescription from './fixtures/libreBorVersion3Description.json' with { type: 'json' };

const sim = useSimulator();
const locator = (mode: string, value: string) => ({ __rl: true, mode, value });

/**
 * What a node of this version shows and runs: its parameters and choices. The node's list of
 * versions and its default version are left aside: they grow with each new version.
 */
function shownToVersion(description: object) {
	const {
		version: _versions,
		defaultVersion: _default,
		...shown
	} = description as Record<string, unknown>;
	return shown;
}

describe('Version 1 of the node (workflows saved before the resource locators)', () => {
	it('is still a version of the node, as is version 2, and new nodes get version 3', () => {
		const { version, defaultVersion } = new LibreBor().description;
		expect(version).toEqual([1, 2, 3]);
		expect(defaultVersion).toBe(3);
	});

	it('shows a version 1 node exactly the parameters and choices it had when version 2 came out', () => {
		// The fixture is the description as version 1 saw it before any version 2 only feature.
		expect(shownToVersion(descriptionForVersion(new LibreBor().description, 1))).toEqual(
			shownToVersion(versionOneDescription),
		);
	});

	it('shows a version 2 node exactly the parameters and choices it had when version 3 came out', () => {
		expect(shownToVersion(descriptionForVersion(new LibreBor().description, 2))).toEqual(
			shownToVersion(versionTwoDescription),
		);
	});

	it('shows a version 3 node the parameters and choices it was released with (the registry look-ups)', () => {
		// Adding to version 3 before its release updates this fixture; after it, a new version does.
		expect(shownToVersion(descriptionForVersion(new LibreBor().description, 3))).toEqual(
			shownToVersion(versionThreeDescription),
		);
	});

	it('marks an alert read from a plain-string Alert ID', async () => {
		const alert = sim().state.addAlert();
		const result = await runLibreBor(
			sim(),
			{ resource: 'alert', operation: 'markAsRead', alertId: alert.id },
			{ typeVersion: 1 },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ result: 'success', alert_id: alert.id }),
		]);
		expect(sim().state.unreadAlerts()).toEqual([]);
	});

	it('unfollows a company from a plain-string NIF, normalised', async () => {
		sim().state.follow('B64717838');
		const result = await runLibreBor(
			sim(),
			{ resource: 'watchlist', operation: 'unfollow', nif: 'es b-64717838' },
			{ typeVersion: 1 },
		);
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ nif: 'B64717838', change: 'unfollowed' }),
		]);
	});

	it('gets a document from a plain-string Document ID', async () => {
		const ordered = await runLibreBor(
			sim(),
			{ resource: 'document', operation: 'order', nif: 'B64717838', year: 2023 },
			{ typeVersion: 1 },
		);
		const documentId = jsonOf(ordered)[0].document_id as string;
		const result = await runLibreBor(
			sim(),
			{ resource: 'document', operation: 'get', documentId },
			{ typeVersion: 1 },
		);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ document_id: documentId })]);
	});
});

describe('Version 2 resource locators', () => {
	it('marks the alert picked from the list as read', async () => {
		const [kept, picked] = [sim().state.addAlert(), sim().state.addAlert()];
		const result = await runLibreBor(sim(), {
			resource: 'alert',
			operation: 'markAsRead',
			alertId: locator('list', picked.id),
		});
		expect(jsonOf(result)).toEqual([expect.objectContaining({ alert_id: picked.id })]);
		expect(
			sim()
				.state.unreadAlerts()
				.map((alert) => alert.id),
		).toEqual([kept.id]);
	});

	it('refuses an alert "By ID" that is not a UUID, before calling LibreBOR', async () => {
		// Typed in: n8n itself reports the field's issue. From an expression: the node's own check.
		await expect(
			runLibreBor(sim(), {
				resource: 'alert',
				operation: 'markAsRead',
				alertId: locator('id', 'not-a-uuid'),
			}),
		).rejects.toThrow(/node has issues/);
		const computed = await runLibreBor(sim(), {
			resource: 'alert',
			operation: 'markAsRead',
			alertId: locator('id', '={{ "not-a-uuid" }}'),
		});
		expect(computed.error?.message).toBe('The alert ID "not-a-uuid" is not valid');
		expect(sim().requestsTo('GET', '/v2/alerts/mark_as_read/')).toEqual([]);
	});

	it('orders for a company "By NIF" with today\'s validation and normalisation', async () => {
		const result = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'order',
			nif: locator('id', 'ES-B64717838'),
			year: 2023,
		});
		expect(jsonOf(result)).toEqual([expect.objectContaining({ nif: 'B64717838', year: 2023 })]);
		const refused = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'unfollow',
			nif: locator('id', 'B64717839'),
		});
		expect(refused.error?.message).toMatch(/The NIF "B64717839" is not valid/);
	});

	it('unfollows the company picked from the list', async () => {
		sim().state.follow('A86212420');
		const result = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'unfollow',
			nif: locator('list', 'A86212420'),
		});
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ nif: 'A86212420', change: 'unfollowed' }),
		]);
	});

	it('reads the document ID from a document or order URL, double slashes included', async () => {
		const ordered = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'order',
			nif: 'B64717838',
			year: 2023,
		});
		const documentId = jsonOf(ordered)[0].document_id as string;
		for (const url of [
			`${sim().baseUrl}/documents/${documentId}/`,
			`https://librebor.me/documents/${documentId}`,
			`https://librebor.me/v2//documents//${documentId}/`,
			`https://librebor.me/v2/order/${documentId}/`,
			`https://librebor.me/panel/documents/?document_id=${documentId}`,
		]) {
			const result = await runLibreBor(sim(), {
				resource: 'document',
				operation: 'get',
				documentId: locator('url', url),
			});
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual([expect.objectContaining({ document_id: documentId })]);
		}
	});

	it.each([
		['a file download link', 'https://files.librebor.me/files/3kd9x'],
		['the order endpoint', 'https://librebor.me/api/v2/documents/order/'],
	])('says what to paste when a URL names no document, such as %s', async (_, url) => {
		const result = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'download',
			documentId: locator('url', url),
		});
		expect(result.error?.message).toBe(`No document ID can be read from the URL "${url}"`);
		expect((result.error as { description?: string }).description).toMatch(/By ID/);
		expect(sim().requests).toEqual([]);
	});
});

describe('Defaults: a new node (version 2) spends nothing and asks for what it cannot know; version 1 keeps its own', () => {
	const { description } = new LibreBor();
	const withDefaults = (parameters: INodeParameters, typeVersion: number) =>
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			{ typeVersion } as INode,
			description,
		);

	it('opens the Document resource on Get, where version 1 opened on Order', () => {
		expect(withDefaults({ resource: 'document' }, 2)?.operation).toBe('get');
		expect(withDefaults({ resource: 'document' }, 1)?.operation).toBe('order');
	});

	it('asks for the year of an order instead of assuming one; version 1 still orders its default 2025', async () => {
		const orderWithoutYear = { resource: 'document', operation: 'order' };
		const version2 = await runLibreBor(sim(), {
			...orderWithoutYear,
			nif: locator('id', 'B64717838'),
		});
		expect(version2.error?.message).toBe('The year "" is not valid');
		expect(sim().requestsTo('POST', '/v2/documents/order/')).toEqual([]);
		const yearField = description.properties.find(
			(property) => property.name === 'year' && property.default === '',
		);
		expect(yearField).toMatchObject({
			required: true,
			placeholder: `e.g. ${new Date().getFullYear() - 1}`,
		});

		const version1 = await runLibreBor(
			sim(),
			{ ...orderWithoutYear, nif: 'B64717838' },
			{ typeVersion: 1 },
		);
		expect(jsonOf(version1)).toEqual([expect.objectContaining({ nif: 'B64717838', year: 2025 })]);
	});

	it('Get Many returns up to 50 unless Return All is on; version 1 returns everything', async () => {
		for (let count = 0; count < 60; count += 1) sim().state.addAlert();
		const getMany = { resource: 'alert', operation: 'getMany' };
		expect((await runLibreBor(sim(), getMany)).items).toHaveLength(50);
		expect((await runLibreBor(sim(), getMany, { typeVersion: 1 })).items).toHaveLength(60);
		expect(withDefaults({ resource: 'watchlist', operation: 'getMany' }, 2)).toMatchObject({
			returnAll: false,
			limit: 50,
		});
		expect(withDefaults({ resource: 'watchlist', operation: 'getMany' }, 1)).toMatchObject({
			returnAll: true,
		});
	});
});
