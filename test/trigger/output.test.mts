import { describe, expect, it } from 'vitest';

import { categoryOfLabel, withCategories } from '../support/actCategoryTable.mts';
import {
	alertIdsOf,
	jsonOf,
	markedIds,
	useSimulator,
	activatedSession,
	triggerSession,
	unreadIds,
} from './triggerSession.mts';

const sim = useSimulator();

/** An active trigger that has taken its baseline, so that everything added next is new. */
const activeTrigger = async (parameters = {}) => await activatedSession(sim(), { parameters });

describe('LibreBOR Trigger, output', () => {
	it('outputs one item per alert, as the API returns it with the category of each entry', async () => {
		const session = await activeTrigger();
		const alert = sim().state.addAlert({
			labels: ['Nombramientos', 'Revocaciones'],
			extra: { future_field: { kept: true } },
		});
		expect(jsonOf(await session.poll())).toEqual([withCategories(alert)]);
	});

	it('outputs one item per alert when Output holds a value this version does not know', async () => {
		// A workflow saved by a later version, or an expression, can give Output any text.
		const session = await activeTrigger({ output: 'somethingNew' });
		const alert = sim().state.addAlert({ labels: ['Nombramientos'] });
		expect(jsonOf(await session.poll())).toEqual([withCategories(alert)]);
	});

	it('outputs one item per bulletin entry, with its category and the alert fields alongside, when Output is Entry', async () => {
		const session = await activeTrigger({ output: 'entry' });
		const alert = sim().state.addAlert({ labels: ['Nombramientos', 'Ceses/Dimisiones'] });
		expect(jsonOf(await session.poll())).toEqual(
			alert.data.map((entry) => ({
				...entry,
				category: categoryOfLabel(entry.label),
				alert_id: alert.id,
				created_at: alert.created_at,
				entity_name: alert.entity_name,
				entity_slug: alert.entity_slug,
				entity_type: alert.entity_type,
			})),
		);
	});
});

const person = (name: string) => ({
	role: 'Adm. Unico',
	type: 'Person',
	name_person: name,
	slug_person: name.toLowerCase(),
});

describe('LibreBOR Trigger, one item per person change', () => {
	it('outputs each person an entry lists with what changed, and nothing for an alert that lists nobody', async () => {
		const session = await activeTrigger({ output: 'position' });
		const changed = sim().state.addAlert({
			entries: [
				{ label: 'Revocaciones', positions: [person('ANA')] },
				{ label: 'Nombramientos', positions: [person('BEN'), person('EVA')] },
			],
		});
		sim().state.addAlert({ label: 'Ampliación de capital' });
		const output = jsonOf(await session.poll());
		expect(output.map((item) => [item.alert_id, item.name_person, item.change])).toEqual([
			[changed.id, 'ANA', 'removed'],
			[changed.id, 'BEN', 'appointed'],
			[changed.id, 'EVA', 'appointed'],
		]);
		expect(output[0]).toEqual({
			...person('ANA'),
			change: 'removed',
			label: 'Revocaciones',
			category: 'officers',
			borme: changed.data[0].borme,
			company: changed.data[0].company,
			announcement: changed.data[0].announcement,
			alert_id: changed.id,
			created_at: changed.created_at,
			entity_name: changed.entity_name,
			entity_slug: changed.entity_slug,
			entity_type: changed.entity_type,
		});
		expect(await session.poll()).toBeNull();
	});
});

describe.each(['alert', 'entry', 'position'])(
	'LibreBOR Trigger, exactly once with Output %s',
	(output) => {
		it('emits each alert in one poll only, across polls and a restart, and marks only what it emitted', async () => {
			const parameters = { output, options: { markAsRead: true } };
			const session = await activeTrigger(parameters);
			const appointment = sim().state.addAlert({
				entries: [{ label: 'Nombramientos', positions: [person('ANA'), person('BEN')] }],
			});
			const capital = sim().state.addAlert({ label: 'Ampliación de capital' });
			const emitted = output === 'position' ? [appointment.id] : [appointment.id, capital.id];
			const perAlert = { alert: 1, entry: 1, position: 2 }[output]!;

			const first = alertIdsOf(await session.poll());
			expect([...new Set(first)]).toEqual(emitted);
			expect(first.filter((id) => id === appointment.id)).toHaveLength(perAlert);
			for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();

			const restarted = triggerSession(sim(), { parameters, staticData: session.savedStaticData });
			expect(await restarted.poll()).toBeNull();
			const later = sim().state.addAlert({
				entries: [{ label: 'Ceses/Dimisiones', positions: [person('EVA')] }],
			});
			expect([...new Set(alertIdsOf(await restarted.poll()))]).toEqual([later.id]);
			expect(await restarted.poll()).toBeNull();
			// A mark may be sent again after the restart (the state n8n kept predates it); it is harmless.
			expect([...new Set(markedIds(sim()))]).toEqual([...emitted, later.id]);
		});
	},
);

describe('LibreBOR Trigger, label filter', () => {
	const labels = 'situacion CONCURSAL, deposito DE CUENTAS especiales';

	it('emits the alerts with an entry whose label matches, accents and case ignored, unknown labels included', async () => {
		const session = await activeTrigger({ options: { labels } });
		sim().state.addAlert({ label: 'Nombramientos' });
		const mixed = sim().state.addAlert({ labels: ['Revocaciones', 'Situación concursal'] });
		const unseenLabel = sim().state.addAlert({ label: 'Depósito de Cuentas Especiales' });
		sim().state.addAlert({ label: 'Situación' });
		expect(alertIdsOf(await session.poll())).toEqual([mixed.id, unseenLabel.id]);
		expect(await session.poll()).toBeNull();
	});

	it('emits only the matching entries when Output is Entry', async () => {
		const session = await activeTrigger({ output: 'entry', options: { labels } });
		const mixed = sim().state.addAlert({
			labels: ['Revocaciones', 'Situación concursal', 'Nombramientos'],
		});
		const output = jsonOf(await session.poll());
		expect(output.map((entry) => [entry.alert_id, entry.label])).toEqual([
			[mixed.id, 'Situación concursal'],
		]);
	});

	it('never emits nor marks the alerts it filters out', async () => {
		const session = await activeTrigger({
			options: { labels: 'Ceses/Dimisiones', markAsRead: true },
		});
		const ignored = sim().state.addAlert({ label: 'Nombramientos' });
		const wanted = sim().state.addAlert({ label: 'ceses/dimisiones' });
		expect(alertIdsOf(await session.poll())).toEqual([wanted.id]);
		for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
		expect(markedIds(sim())).toEqual([wanted.id]);
		expect(unreadIds(sim())).toEqual([ignored.id]);
	});

	it('lets every alert through when the filter is empty or only commas and spaces', async () => {
		const session = await activeTrigger({ options: { labels: ' , ,' } });
		const alerts = [
			sim().state.addAlert({ label: 'Nombramientos' }),
			sim().state.addAlert({ label: 'Label Nobody Has Seen' }),
		];
		expect(alertIdsOf(await session.poll())).toEqual(alerts.map(({ id }) => id));
	});
});
