import { NodeHelpers, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { triggerVersion } from '../../tools/engine/triggerSession.mts';
import {
	alertIdsOf,
	jsonOf,
	triggerSession,
	useSimulator,
	activatedSession,
	unreadIds,
} from './triggerSession.mts';

const sim = useSimulator();
const company = (nif: string) => ({ __rl: true, mode: 'list', value: nif });

describe('LibreBOR Trigger filters', () => {
	it('emits only the alerts that pass the label, company and date filters', async () => {
		sim().state.follow('A86212420');
		sim().state.follow('B64717838');
		const session = await activatedSession(sim(), {
			parameters: {
				options: {
					actLabels: ['Nombramientos'],
					company: company('B64717838'),
					createdAfter: '2026-01-01T00:00:00',
				},
			},
		});
		sim().state.addAlert({
			nif: 'A86212420',
			label: 'Nombramientos',
			created_at: '2026-03-01T00:00:00.000Z',
		});
		sim().state.addAlert({
			nif: 'B64717838',
			label: 'Revocaciones',
			created_at: '2026-03-01T00:00:00.000Z',
		});
		sim().state.addAlert({
			nif: 'B64717838',
			label: 'Nombramientos',
			created_at: '2025-12-01T00:00:00.000Z',
		});
		const wanted = sim().state.addAlert({
			nif: 'B64717838',
			label: 'Nombramientos',
			created_at: '2026-03-02T00:00:00.000Z',
		});
		expect(alertIdsOf(await session.poll())).toEqual([wanted.id]);
	});

	it('remembers a filtered-out alert as seen: clearing the filter later does not emit it', async () => {
		sim().state.follow('A86212420');
		sim().state.follow('B64717838');
		const filtered = triggerSession(sim(), {
			parameters: { options: { company: company('B64717838') } },
		});
		expect(await filtered.poll()).toBeNull();
		const leftOut = sim().state.addAlert({ nif: 'A86212420' });
		const kept = sim().state.addAlert({ nif: 'B64717838' });
		expect(alertIdsOf(await filtered.poll())).toEqual([kept.id]);

		// The user removes the filter: n8n activates the workflow again from the saved state.
		filtered.republish({});
		expect(await filtered.poll()).toBeNull();
		const next = sim().state.addAlert({ nif: 'A86212420' });
		expect(alertIdsOf(await filtered.poll())).toEqual([next.id]);
		expect(unreadIds(sim())).toContain(leftOut.id);
	});

	it('emits the alerts with an entry in a picked category or with a picked label, and with entries only those', async () => {
		const options = { categories: ['distress'], actLabels: ['Nombramientos'] };
		const alerts = await activatedSession(sim(), { parameters: { options } });
		const entries = await activatedSession(sim(), { parameters: { output: 'entry', options } });
		sim().state.addAlert({ labels: ['Ampliación de capital', 'Revocaciones'] });
		const appointed = sim().state.addAlert({ label: 'Nombramientos' });
		const closing = sim().state.addAlert({ labels: ['Revocaciones', 'Extinción'] });
		expect(alertIdsOf(await alerts.poll())).toEqual([appointed.id, closing.id]);
		expect(
			jsonOf(await entries.poll()).map((entry) => [entry.alert_id, entry.label, entry.category]),
		).toEqual([
			[appointed.id, 'Nombramientos', 'officers'],
			[closing.id, 'Extinción', 'distress'],
		]);
	});

	it('keeps the plain comma-separated Labels option of existing workflows working', async () => {
		const session = await activatedSession(sim(), {
			parameters: { options: { labels: 'situacion concursal' } },
		});
		sim().state.addAlert({ label: 'Nombramientos' });
		const wanted = sim().state.addAlert({ label: 'Situación concursal' });
		expect(alertIdsOf(await session.poll())).toEqual([wanted.id]);
	});

	it('offers the watched companies to pick from, and says alerts stay unread while Mark as Read is off', () => {
		const { description, methods } = triggerVersion(2);
		expect(Object.keys(methods?.listSearch ?? {})).toEqual(['searchWatchedCompanies']);
		const unreadNotice = description.properties.find(
			(property) => property.name === 'markAsReadNotice',
		);
		expect(unreadNotice?.displayName).toMatch(
			/Mark as Read is off: .* stay unread in LibreBOR's panel/,
		);
		const shownFor = (markAsRead?: boolean) => {
			const values = { options: markAsRead === undefined ? {} : { markAsRead } };
			return NodeHelpers.displayParameter(values, unreadNotice!, null, description, values);
		};
		expect([shownFor(), shownFor(false), shownFor(true)]).toEqual([true, true, false]);
	});

	it('shows one notice at a time, and names its Output choices as version 2 of the LibreBOR node does', () => {
		const { description } = triggerVersion(3);
		const noticesShown = (markAsRead: boolean) => {
			const values = { options: { markAsRead } };
			return description.properties.filter(
				(property) =>
					property.type === 'notice' &&
					NodeHelpers.displayParameter(values, property, null, description, values),
			);
		};
		expect([noticesShown(false).length, noticesShown(true).length]).toEqual([1, 1]);

		const outputNames = (properties: INodeProperties[]) =>
			properties
				.find((property) => property.name === 'output')
				?.options?.map((option) => (option as INodePropertyOptions).name);
		const getManyOutput = new LibreBor().description.properties.filter(
			(property) =>
				property.name === 'output' &&
				property.displayOptions?.show?.resource?.includes('alert') &&
				!property.displayOptions.show['@version']?.includes(1),
		);
		expect(outputNames(description.properties)).toEqual(outputNames(getManyOutput));
		expect(outputNames(description.properties)).toEqual([
			'One Item per Alert',
			'One Item per Bulletin Entry',
			'One Item per Person Change',
		]);
	});
});
