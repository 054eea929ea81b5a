import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	categoryOfLabel,
	documentedCategories,
	parserActLabels,
	personChange,
	withCategories,
} from '../support/actCategoryTable.mts';
import { jsonOf, pairedItemsOf, runLibreBor, useSimulator } from '../support/libreBor.mts';

const sim = useSimulator();
const getMany = (parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'alert',
	operation: 'getMany',
	returnAll: true,
	...parameters,
});
const idsOf = (result: Awaited<ReturnType<typeof runLibreBor>>) =>
	jsonOf(result).map((json) => json.alert_id ?? json.id);
const person = (name: string, role = 'Consejero') => ({
	role,
	type: 'Person',
	name_person: name,
	slug_person: name.toLowerCase().replaceAll(' ', '-'),
});

describe('Act categories', () => {
	it('documents every act label of the BORME parser, and besides them only two sole-shareholder labels', () => {
		const documented = documentedCategories();
		const labels = parserActLabels();
		expect(labels).toHaveLength(57);
		expect(labels.filter((label) => !documented.has(label))).toEqual([]);
		expect([...documented.keys()].filter((label) => !labels.includes(label))).toEqual([
			'Cambio de identidad del socio único',
			'Socio único',
		]);
		// The routes the categories exist for.
		expect(
			['Situación concursal', 'Disolución', 'Nombramientos', 'Declaración de unipersonalidad'].map(
				categoryOfLabel,
			),
		).toEqual(['distress', 'distress', 'officers', 'ownership']);
	});

	it('gives the entry of every label of the parser its documented category, in alert and entry output', async () => {
		const labels = [...documentedCategories().keys()];
		const alert = sim().state.addAlert({ labels });

		const entries = await runLibreBor(sim(), getMany({ output: 'entry' }));
		expect(jsonOf(entries).map((entry) => [entry.label, entry.category])).toEqual(
			labels.map((label) => [label, categoryOfLabel(label)]),
		);
		const alerts = await runLibreBor(sim(), getMany());
		expect(jsonOf(alerts)).toEqual([withCategories(alert)]);
	});

	it('ignores case and accents, files every label it does not know, or no label, under other, and skips what is not an entry', async () => {
		const labels = [
			'SITUACION CONCURSAL',
			'nombramientos',
			'CESES/dimisiones',
			'pagina web de la sociedad',
			'Perdida del carácter de unipersonalidad',
			'Depósito de cuentas anuales',
			'Situación',
		];
		sim().state.addAlert({ labels });
		sim().state.addAlert({ data: [{ positions: [] }, 'not an entry', { label: 7 }] });
		sim().state.addAlert({ extra: { data: null } });
		const result = await runLibreBor(sim(), getMany({ output: 'entry' }));
		expect(jsonOf(result).map((entry) => entry.category)).toEqual([
			'other',
			'other',
			'distress',
			'officers',
			'officers',
			'identity',
			'ownership',
			'other',
			'other',
		]);
	});
});

describe('Alert: Get Many, Categories filter', () => {
	it('keeps the alerts with an entry in a picked category or with a picked label', async () => {
		sim().state.addAlert({ data: [{ label: 7 }, { positions: [] }] });
		sim().state.addAlert({ label: 'Nombramientos' });
		const dissolved = sim().state.addAlert({ labels: ['Revocaciones', 'Disolución'] });
		const capital = sim().state.addAlert({ label: 'Ampliación de capital' });
		const closed = sim().state.addAlert({
			label: 'Cierre provisional de la hoja registral por revocación del NIF',
		});
		const options = { categories: ['distress'], actLabels: ['Ampliación de capital'] };

		const alerts = await runLibreBor(sim(), getMany({ options }));
		expect(idsOf(alerts)).toEqual([closed.id, capital.id, dissolved.id]);

		const entries = await runLibreBor(sim(), getMany({ options, output: 'entry' }));
		expect(jsonOf(entries).map((entry) => [entry.alert_id, entry.label, entry.category])).toEqual([
			[closed.id, 'Cierre provisional de la hoja registral por revocación del NIF', 'distress'],
			[capital.id, 'Ampliación de capital', 'capital'],
			[dissolved.id, 'Disolución', 'distress'],
		]);
	});

	it('takes categories from an expression, and refuses one that is not a category before calling LibreBOR', async () => {
		const appointed = sim().state.addAlert({ label: 'Nombramientos' });
		sim().state.addAlert({ label: 'Ampliación de capital' });
		const insolvent = sim().state.addAlert({ label: 'Situación concursal' });
		const fromText = await runLibreBor(
			sim(),
			getMany({ options: { categories: '={{ "Distress, officers," }}' } }),
		);
		expect(idsOf(fromText)).toEqual([insolvent.id, appointed.id]);
		const none = await runLibreBor(sim(), getMany({ options: { categories: '={{ null }}' } }));
		expect(idsOf(none)).toHaveLength(3);

		sim().clearLog();
		const typo = await runLibreBor(
			sim(),
			getMany({ options: { categories: '={{ ["distres"] }}' } }),
		);
		expect(typo.error?.message).toBe('"distres" is not an act category');
		expect((typo.error as { description?: string }).description).toMatch(
			/officers, ownership, capital, identity, restructuring, distress, other/,
		);
		const sentence = 'officers and whoever else the bulletin names';
		const long = await runLibreBor(sim(), getMany({ options: { categories: [sentence] } }));
		expect(long.error?.message).toBe(`"${sentence.slice(0, 40)}" is not an act category`);
		expect(sim().requests).toEqual([]);
	});
});

describe('Alert: Get Many, one item per person change', () => {
	it('gives each person an entry lists, with what changed for them and the entry and alert alongside', async () => {
		const [ana, ben, eva, luis, marta, pedro, rosa, sara] = [
			'ANA',
			'BEN',
			'EVA',
			'LUIS',
			'MARTA',
			'PEDRO',
			'ROSA',
			'SARA',
		].map((name) => person(name));
		const alert = sim().state.addAlert({
			entries: [
				{ label: 'Nombramientos', positions: [ana, ben] },
				{ label: 'Reelecciones', positions: [eva] },
				{ label: 'Ceses/Dimisiones', positions: [luis] },
				{ label: 'Revocaciones', positions: [marta] },
				{ label: 'Cancelaciones de oficio de nombramientos', positions: [pedro] },
				{ label: 'Modificación de poderes', positions: [rosa] },
				{ label: undefined, positions: [sara] },
				{ label: 'Ampliación de capital', positions: [] },
				{ label: 'Disolución' },
			],
		});
		const result = await runLibreBor(sim(), getMany({ output: 'position' }));
		const [appointed, reelected, ceased, revoked, cancelled, powers, unlabelled] = alert.data;
		expect(jsonOf(result)).toEqual([
			personChange(alert, appointed, ana, 'appointed'),
			personChange(alert, appointed, ben, 'appointed'),
			personChange(alert, reelected, eva, 'reelected'),
			personChange(alert, ceased, luis, 'removed'),
			personChange(alert, revoked, marta, 'removed'),
			personChange(alert, cancelled, pedro, 'removed'),
			personChange(alert, powers, rosa, 'other'),
			personChange(alert, unlabelled, sara, 'other'),
		]);
		expect(pairedItemsOf(result)).toEqual(jsonOf(result).map(() => ({ item: 0 })));
	});

	it('gives only the people of the entries that pass the filters, up to the limit', async () => {
		sim().state.addAlert({
			entries: [
				{ label: 'Nombramientos', positions: [person('ANA'), person('BEN')] },
				{ label: 'Situación concursal', positions: [person('ADMINISTRADOR CONCURSAL')] },
			],
		});
		const officers = await runLibreBor(
			sim(),
			getMany({ output: 'position', options: { categories: ['officers'] } }),
		);
		expect(jsonOf(officers).map((change) => change.name_person)).toEqual(['ANA', 'BEN']);
		const limited = await runLibreBor(
			sim(),
			getMany({ output: 'position', returnAll: false, limit: 1 }),
		);
		expect(jsonOf(limited).map((change) => change.name_person)).toEqual(['ANA']);
	});
});

describe('Alert: Get Many, answers of an odd shape', () => {
	it('gives an alert whose data is no list as it is, and a person only for a position that is a record', async () => {
		const bare = sim().state.addAlert({ extra: { data: null } });
		sim().state.addAlert({
			data: [
				{ label: 'Nombramientos', positions: person('ANA') },
				{ label: 'Nombramientos', positions: [person('BEN'), 'EVA', null] },
			],
		});
		const alerts = await runLibreBor(sim(), getMany());
		expect(jsonOf(alerts)).toContainEqual(bare);
		const people = await runLibreBor(sim(), getMany({ output: 'position' }));
		expect(jsonOf(people).map((change) => change.name_person)).toEqual(['BEN']);
	});
});

describe('Alert: Get Many in version 1', () => {
	it('outputs alerts and entries as it always did, without the categories version 2 adds, and entries of the labels given', async () => {
		const alert = sim().state.addAlert({
			entries: [{ label: 'Nombramientos' }, { label: 'Situación concursal' }, { label: undefined }],
		});
		const alerts = await runLibreBor(sim(), getMany(), { typeVersion: 1 });
		expect(jsonOf(alerts)).toEqual([alert]);
		const entries = await runLibreBor(sim(), getMany({ output: 'entry' }), { typeVersion: 1 });
		expect(jsonOf(entries)).toHaveLength(3);
		for (const entry of jsonOf(entries)) expect(entry).not.toHaveProperty('category');
		// Version 2 is the first with them.
		const since2 = await runLibreBor(sim(), getMany({ output: 'entry' }), { typeVersion: 2 });
		expect(jsonOf(since2).map((entry) => entry.category)).toEqual([
			'officers',
			'distress',
			'other',
		]);
		const labelled = await runLibreBor(
			sim(),
			getMany({ output: 'entry', options: { labels: 'NOMBRAMIENTOS' } }),
			{ typeVersion: 1 },
		);
		expect(jsonOf(labelled).map((entry) => entry.label)).toEqual(['Nombramientos']);
	});
});
