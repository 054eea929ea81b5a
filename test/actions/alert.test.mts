import { describe, expect, it } from 'vitest';

import { withCategories } from '../support/actCategoryTable.mts';
import { jsonOf, pairedItemsOf, runLibreBor, useSimulator } from '../support/libreBor.mts';

const sim = useSimulator();

describe('Alert: Get Many', () => {
	it('returns every unread alert, one item per alert, as the API returns it with the category of each entry', async () => {
		const [empty, older, newer] = [
			sim().state.addAlert({ data: [] }),
			sim().state.addAlert({ label: 'Revocaciones' }),
			sim().state.addAlert({ label: 'Nombramientos' }),
		];
		const result = await runLibreBor(sim(), { resource: 'alert', operation: 'getMany' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([newer, older, empty].map(withCategories));
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
	});

	it('fails with what LibreBOR answered when its listing is not a list', async () => {
		sim().injectFault({
			method: 'GET',
			path: '/v2/alerts/',
			status: 200,
			body: '{"detail":"Not found."}',
			contentType: 'application/json',
		});
		const result = await runLibreBor(sim(), { resource: 'alert', operation: 'getMany' });
		expect(result.error?.message).toBe(
			'LibreBOR answered GET /alerts/ with JSON of an unexpected shape instead of the expected JSON',
		);
	});

	it("wraps each alert as an item's json, so that an answer cannot set binary, error or pairedItem", async () => {
		const alert = sim().state.addAlert();
		const hostile = {
			...alert,
			json: { forged: true },
			binary: { data: { data: 'eA==', mimeType: 'text/plain' } },
			error: 'forged',
			pairedItem: { item: 9 },
		};
		sim().injectFault({
			method: 'GET',
			path: '/v2/alerts/',
			status: 200,
			body: JSON.stringify([hostile]),
			contentType: 'application/json',
		});
		const result = await runLibreBor(sim(), { resource: 'alert', operation: 'getMany' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([withCategories(hostile)]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }]);
		expect(result.items.map((item) => item.binary)).toEqual([undefined]);
	});

	it('limits the number of items when Return All is off', async () => {
		sim().state.addAlerts(5);
		const result = await runLibreBor(sim(), {
			resource: 'alert',
			operation: 'getMany',
			returnAll: false,
			limit: 2,
		});
		expect(result.items).toHaveLength(2);
	});

	it('outputs one flat item per bulletin entry with the alert fields alongside', async () => {
		const alert = sim().state.addAlert({ labels: ['Nombramientos', 'Ceses/Dimisiones'] });
		const result = await runLibreBor(sim(), {
			resource: 'alert',
			operation: 'getMany',
			output: 'entry',
		});
		expect(result.items).toHaveLength(2);
		const [first, second] = jsonOf(result);
		for (const [entry, source] of [
			[first, alert.data[0]],
			[second, alert.data[1]],
		] as const) {
			expect(entry).toMatchObject({
				...source,
				alert_id: alert.id,
				created_at: alert.created_at,
				entity_name: alert.entity_name,
				entity_slug: alert.entity_slug,
				entity_type: alert.entity_type,
			});
		}
		expect(first.label).toBe('Nombramientos');
	});

	it('keeps only alerts with a matching act label, accents and case ignored', async () => {
		sim().state.addAlert({ label: 'Nombramientos' });
		const wanted = sim().state.addAlert({ label: 'Situación concursal' });
		const result = await runLibreBor(sim(), {
			resource: 'alert',
			operation: 'getMany',
			options: { labels: 'situacion CONCURSAL, Label Nobody Has Seen' },
		});
		expect(jsonOf(result).map((alert) => alert.id)).toEqual([wanted.id]);
	});

	it('returns nothing when there are no unread alerts', async () => {
		const result = await runLibreBor(sim(), { resource: 'alert', operation: 'getMany' });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
	});
});

describe('Alert: Mark as Read', () => {
	it('marks the alert read and outputs the answer with the alert ID', async () => {
		const alert = sim().state.addAlert();
		const result = await runLibreBor(sim(), {
			resource: 'alert',
			operation: 'markAsRead',
			alertId: alert.id,
		});
		expect(jsonOf(result)).toEqual([{ result: 'success', alert_id: alert.id }]);
		expect(sim().state.unreadAlerts()).toEqual([]);
	});

	it('marks one alert per input item, each output paired with its input', async () => {
		const alerts = sim().state.addAlerts(3);
		const result = await runLibreBor(
			sim(),
			{ resource: 'alert', operation: 'markAsRead', alertId: '={{ $json.id }}' },
			{ items: alerts.map((alert) => ({ id: alert.id })) },
		);
		expect(jsonOf(result).map((answer) => answer.alert_id)).toEqual(
			alerts.map((alert) => alert.id),
		);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(sim().state.unreadAlerts()).toEqual([]);
	});
	it('fails a mark that LibreBOR answers with a result other than success', async () => {
		const alert = sim().state.addAlert();
		sim().injectFault({
			method: 'GET',
			path: `/v2/alerts/mark_as_read/${alert.id}/`,
			status: 200,
			body: '{"result":"error"}',
			contentType: 'application/json',
		});
		const result = await runLibreBor(sim(), {
			resource: 'alert',
			operation: 'markAsRead',
			alertId: alert.id,
		});
		expect(result.error?.message).toMatch(/did not confirm/);
	});
});

describe('Alert: Mark All as Read', () => {
	it('empties the unread list', async () => {
		sim().state.addAlerts(4);
		const result = await runLibreBor(sim(), { resource: 'alert', operation: 'markAllAsRead' });
		expect(jsonOf(result)).toEqual([{ result: 'success' }]);
		expect(sim().state.unreadAlerts()).toEqual([]);
	});
});
