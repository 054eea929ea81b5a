// Builds alerts shaped like the service's: a UUID, timestamps, the watched entity and one or
// more BORME entries with positions, filled with plausible generated values.
import { randomInt, randomUUID } from 'node:crypto';
import { slugify } from './companies.mts';
import type { Alert, AlertEntry, AlertSpec, Company, Position } from './types.mts';

const PROVINCES = ['MADRID', 'BARCELONA', 'VALENCIA', 'SEVILLA', 'ZARAGOZA', 'VIZCAYA', 'MALAGA'];
const ROLES = ['Adm. Unico', 'Consejero', 'Presidente', 'Apoderado', 'Adm. Solid.', 'Secretario'];
const PEOPLE = [
	'GARCIA LOPEZ MARIA',
	'FERNANDEZ RUIZ JAVIER',
	'MARTINEZ SANCHEZ LUCIA',
	'RODRIGUEZ PEREZ ANTONIO',
	'GOMEZ NAVARRO CARMEN',
	'IBAÑEZ ORTEGA JORDI',
];

function pick<T>(values: readonly T[]): T {
	return values[randomInt(values.length)];
}

function makePosition(): Position {
	const name = pick(PEOPLE);
	return { role: pick(ROLES), type: 'Person', name_person: name, slug_person: slugify(name) };
}

function makeEntry(company: Company, label: string, now: Date): AlertEntry {
	const date = now.toISOString().slice(0, 10);
	const [year, month, day] = date.split('-');
	const bulletin = randomInt(1, 250);
	const provinceCode = randomInt(1, 53).toString().padStart(2, '0');
	const cve = `BORME-A-${year}-${bulletin}-${provinceCode}`;
	const positions = label === 'Nombramientos' || label === 'Revocaciones' ? [makePosition()] : [];
	return {
		borme: {
			cve,
			url: `https://www.boe.es/borme/dias/${year}/${month}/${day}/pdfs/${cve}.pdf`,
			date,
			province: pick(PROVINCES),
		},
		label,
		company: { name: company.name, slug: company.slug },
		positions,
		announcement: {
			date,
			year: Number(year),
			branch: '',
			number: randomInt(100000, 999999),
			office: '',
			registry_data: `Datos registrales. T ${randomInt(1000, 45000)} , F ${randomInt(1, 200)}, S 8, H M ${randomInt(100000, 800000)}, I/A ${randomInt(1, 30)} (${day}.${month}.${year.slice(2)}).`,
		},
		total_positions: positions.length,
	};
}

export function buildAlert(spec: AlertSpec, company: Company, now: Date = new Date()): Alert {
	const createdAt = spec.created_at ?? now.toISOString();
	// Entries of a back-dated alert carry that alert's dates.
	const when = Number.isNaN(Date.parse(createdAt)) ? now : new Date(createdAt);
	let data: AlertEntry[];
	if (spec.data) {
		data = spec.data as AlertEntry[];
	} else if (spec.entries) {
		data = spec.entries.map((entry) => {
			const base = makeEntry(company, entry.label ?? spec.label ?? 'Nombramientos', when);
			const merged = { ...base, ...entry };
			if (entry.positions && entry.total_positions === undefined)
				merged.total_positions = entry.positions.length;
			return merged;
		});
	} else {
		const labels = spec.labels ?? [spec.label ?? 'Nombramientos'];
		data = labels.map((label) => makeEntry(company, label, when));
	}
	return {
		id: spec.id ?? randomUUID(),
		created_at: createdAt,
		seen_at: spec.seen_at ?? createdAt,
		entity_name: spec.entity_name ?? company.name,
		entity_slug: spec.entity_slug ?? company.slug,
		entity_type: spec.entity_type ?? 'company',
		data,
		...spec.extra,
	};
}
