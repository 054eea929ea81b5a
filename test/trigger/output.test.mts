import { describe, expect, it } from 'vitest';

import {
	alertIdsOf,
	jsonOf,
	markedIds,
	useSimulator,
	activatedSession,
	unreadIds,
} from './triggerSession.mts';

const sim = useSimulator();

/** An active trigger that has taken its baseline, so that everything added next is new. */
const activeTrigger = async (parameters = {}) => await activatedSession(sim(), { parameters });

describe('LibreBOR Trigger, output', () => {
	it('outputs one item per alert, exactly as the API returns it', async () => {
		const session = await activeTrigger();
		const alert = sim().state.addAlert({
			labels: ['Nombramientos', 'Revocaciones'],
			extra: { future_field: { kept: true } },
		});
		expect(jsonOf(await session.poll())).toEqual([alert]);
	});

	it('outputs one item per bulletin entry, with the alert fields alongside, when Output is Entry', async () => {
		const session = await activeTrigger({ output: 'entry' });
		const alert = sim().state.addAlert({ labels: ['Nombramientos', 'Ceses/Dimisiones'] });
		expect(jsonOf(await session.poll())).toEqual(
			alert.data.map((entry) => ({
				...entry,
				alert_id: alert.id,
				created_at: alert.created_at,
				entity_name: alert.entity_name,
				entity_slug: alert.entity_slug,
				entity_type: alert.entity_type,
			})),
		);
	});
});

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
