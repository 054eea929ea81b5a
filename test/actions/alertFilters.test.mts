import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	answerWatchList,
	hintsOf,
	jsonOf,
	runLibreBor,
	useSimulator,
} from '../support/libreBor.mts';

const sim = useSimulator();
const getMany = (options: INodeParameters, output = 'alert'): INodeParameters => ({
	resource: 'alert',
	operation: 'getMany',
	output,
	options,
});
const aboutCompany = (mode: 'list' | 'id', nif: string) =>
	getMany({ company: { __rl: true, mode, value: nif } });
const createdAfter = async (date: string, timezone: string) =>
	await runLibreBor(sim(), getMany({ createdAfter: date }), { timezone });
const idsOf = (result: Awaited<ReturnType<typeof runLibreBor>>) =>
	jsonOf(result).map((json) => json.alert_id ?? json.id);

describe('Alert: Get Many filters', () => {
	it('keeps alerts with a label picked from the list, given by an expression or typed as free text', async () => {
		const appointed = sim().state.addAlert({ label: 'Nombramientos' });
		const revoked = sim().state.addAlert({ label: 'Revocaciones' });
		const unusual = sim().state.addAlert({ label: 'Depósito de cuentas anuales' });
		const result = await runLibreBor(
			sim(),
			getMany({ actLabels: ['Nombramientos'], labels: 'deposito de cuentas ANUALES' }),
		);
		expect(result.error).toBeUndefined();
		expect(idsOf(result)).toEqual([unusual.id, appointed.id]);
		const fromExpression = await runLibreBor(
			sim(),
			getMany({ actLabels: '={{ ["Nombramientos", null] }}' }),
		);
		expect(idsOf(fromExpression)).toEqual([appointed.id]);
		// Each field takes a list or a text, whichever an expression gives.
		const swapped = await runLibreBor(
			sim(),
			getMany({ actLabels: '={{ "Nombramientos" }}', labels: '={{ ["Revocaciones"] }}' }),
		);
		expect(idsOf(swapped)).toEqual([revoked.id, appointed.id]);
	});

	it('refuses a label that is not text, before calling LibreBOR, rather than keeping every alert', async () => {
		const result = await runLibreBor(sim(), getMany({ actLabels: '={{ [1, 2] }}' }));
		expect(result.error?.message).toBe('Act Labels must be text, not 1');
		expect((result.error as { description?: string }).description).toMatch(/Nothing was read/);
		expect(sim().requestsTo('GET', '/v2/alerts/')).toEqual([]);
	});

	it('keeps only the entries with a matching label when the output is one item per entry', async () => {
		const alert = sim().state.addAlert({ labels: ['Nombramientos', 'Ceses/Dimisiones'] });
		const result = await runLibreBor(sim(), getMany({ actLabels: ['Ceses/Dimisiones'] }, 'entry'));
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ alert_id: alert.id, label: 'Ceses/Dimisiones' }),
		]);
	});

	it('keeps only the alerts about the company picked from the watch list, or given by NIF, and every alert when it is left blank', async () => {
		sim().state.follow('A86212420');
		sim().state.follow('B64717838');
		const altamira = sim().state.addAlert({ nif: 'A86212420' });
		const brisas = sim().state.addAlert({ nif: 'B64717838' });
		const picked = await runLibreBor(sim(), aboutCompany('list', 'B64717838'));
		expect(idsOf(picked)).toEqual([brisas.id]);
		const typed = await runLibreBor(sim(), aboutCompany('id', 'es-b64717838'));
		expect(idsOf(typed)).toEqual([brisas.id]);
		const blank = await runLibreBor(sim(), aboutCompany('id', '  '));
		expect(idsOf(blank)).toEqual([brisas.id, altamira.id]);
	});

	it('says to follow the company first when the NIF is not on the watch list', async () => {
		sim().state.addAlert({ nif: 'B64717838' });
		const result = await runLibreBor(sim(), aboutCompany('id', 'B64717838'));
		expect(result.error?.message).toBe('The company B64717838 is not on your LibreBOR watch list');
		expect((result.error as { description?: string }).description).toMatch(/Watch List > Follow/);
	});

	it('keeps only the alerts created at or after Created After', async () => {
		sim().state.addAlert({ created_at: '2026-01-10T08:00:00.000Z' });
		const recent = sim().state.addAlert({ created_at: '2026-02-01T00:00:00.000Z' });
		const result = await createdAfter('2026-02-01T00:00:00', 'UTC');
		expect(idsOf(result)).toEqual([recent.id]);
	});

	it('keeps an alert whose creation time cannot be read only while Created After is empty', async () => {
		const undated = ['sometime', 2026, undefined].map((time) =>
			sim().state.addAlert({ extra: { created_at: time } }),
		);
		const dated = sim().state.addAlert({ created_at: '2026-01-10T08:00:00.000Z' });
		const every = new Set([dated, ...undated].map(({ id }) => id));
		for (const empty of ['', '={{ null }}'])
			expect(new Set(idsOf(await createdAfter(empty, 'UTC')))).toEqual(every);
		expect(idsOf(await createdAfter('1969-12-31', 'UTC'))).toEqual([dated.id]);
	});

	it("reads a Created After without an offset in the workflow's timezone, as the editor shows it", async () => {
		sim().state.addAlert({ created_at: '2026-01-31T22:30:00.000Z' });
		const afterMadridMidnight = sim().state.addAlert({ created_at: '2026-01-31T23:30:00.000Z' });
		const result = await createdAfter('2026-02-01T00:00:00', 'Europe/Madrid');
		expect(idsOf(result)).toEqual([afterMadridMidnight.id]);
		const summer = await createdAfter('2026-07-01', 'Europe/Madrid');
		expect(summer.items).toEqual([]);
		const withOffset = await createdAfter('2026-01-31T22:00:00Z', 'Europe/Madrid');
		expect(withOffset.items).toHaveLength(2);
	});

	it.each([
		['B64717838', 'ES-b64717838'],
		// A CIF whose check character is valid as a digit or as a letter.
		['J99216582', 'J9921658B'],
	])(
		'finds the picked company %s however the watch list writes its NIF (%s)',
		async (nif, listed) => {
			const entity = sim().state.follow(nif);
			const alert = sim().state.addAlert({ nif });
			answerWatchList(sim(), [{ ...entity, nif: listed }]);
			const result = await runLibreBor(sim(), aboutCompany('list', nif));
			expect(result.error).toBeUndefined();
			expect(idsOf(result)).toEqual([alert.id]);
		},
	);

	it('refuses a Created After that is not a date, before calling LibreBOR', async () => {
		const result = await runLibreBor(sim(), getMany({ createdAfter: '={{ "last tuesday" }}' }));
		expect(result.error?.message).toBe('The date "last tuesday" of Created After is not valid');
		expect((result.error as { description?: string }).description).toMatch(/ISO 8601/);
		expect(sim().requestsTo('GET', '/v2/alerts/')).toEqual([]);
	});
});

describe('Alert: Get Many, company filter when LibreBOR leaves out a slug or a name', () => {
	it.each([
		{ entity: 'as listed', changes: {}, kept: ['unslugged', 'renamed'] },
		{
			entity: 'with a slug that is not text',
			changes: { slug: 7 },
			kept: ['unslugged', 'namesake'],
		},
		{ entity: 'with a name that is not text', changes: { name: 7 }, kept: ['renamed'] },
	])('matches by slug, else by name, the watched company $entity', async ({ changes, kept }) => {
		const entity = sim().state.follow('B64717838');
		// A followed person (no NIF) comes first.
		const person = { type: 'person', name: 'GARCIA LOPEZ MARIA', slug: 'garcia-lopez-maria' };
		answerWatchList(sim(), [person, { ...entity, ...changes }]);
		const noSlug = { entity_slug: undefined };
		const alerts: Record<string, { id: string }> = {
			renamed: sim().state.addAlert({ nif: 'B64717838', entity_name: 'BRISAS DEL BESOS SL' }),
			namesake: sim().state.addAlert({ nif: 'B64717838', entity_slug: 'brisas-2' }),
			unslugged: sim().state.addAlert({
				nif: 'B64717838',
				entity_name: 'Brisas del  Llobregat SL',
				extra: noSlug,
			}),
			other: sim().state.addAlert({ nif: 'A86212420', extra: noSlug }),
			anonymous: sim().state.addAlert({ extra: { ...noSlug, entity_name: undefined } }),
			numbered: sim().state.addAlert({ extra: { ...noSlug, entity_name: 42 } }),
		};
		const result = await runLibreBor(sim(), aboutCompany('list', 'B64717838'));
		expect(result.error).toBeUndefined();
		expect(idsOf(result)).toEqual(kept.map((name) => alerts[name].id));
	});
});

describe('Alert: Get Many hint', () => {
	it('tells what to do when there are no unread alerts: follow a company or use the sandbox', async () => {
		const result = await runLibreBor(sim(), getMany({}));
		expect(result.items).toEqual([]);
		expect(hintsOf(result)).toEqual([
			expect.stringMatching(
				/^LibreBOR has no unread alerts .*follow one \(Watch List > Follow\).*sandbox/,
			),
		]);
	});

	it('gives no hint when there are unread alerts', async () => {
		sim().state.addAlert();
		expect(hintsOf(await runLibreBor(sim(), getMany({})))).toEqual([]);
	});
});
