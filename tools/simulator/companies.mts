// The simulator's company directory: a few known companies, and a made-up but stable name and
// slug for any other well-formed NIF (the real service knows every registered company).
import { createHash } from 'node:crypto';
import type { Company } from './types.mts';

export const SEED_COMPANIES: readonly Company[] = [
	{ nif: 'A86212420', name: 'ALTAMIRA INFRAESTRUCTURAS SA', slug: 'altamira-infraestructuras' },
	{ nif: 'B64717838', name: 'BRISAS DEL LLOBREGAT SL', slug: 'brisas-del-llobregat' },
	{ nif: 'J99216582', name: 'TALLER COOPERATIVO DEL EBRO SC', slug: 'taller-cooperativo-del-ebro' },
	{ nif: 'A28012342', name: 'CONSTRUCCIONES MESETA SA', slug: 'construcciones-meseta' },
	{ nif: 'B12345674', name: 'CERAMICAS AZAHAR SL', slug: 'ceramicas-azahar' },
	{ nif: 'B87654323', name: 'DATOS Y LOGISTICA DEL SUR SL', slug: 'datos-y-logistica-del-sur' },
	{
		nif: 'F46001236',
		name: 'HORTA VALENCIANA SOCIEDAD COOPERATIVA',
		slug: 'horta-valenciana-sociedad-cooperativa',
	},
];

const FIRST_WORDS = [
	'INDUSTRIAS',
	'SERVICIOS',
	'INVERSIONES',
	'DESARROLLOS',
	'SOLUCIONES',
	'GRUPO',
	'TALLERES',
	'COMERCIAL',
];
const SECOND_WORDS = [
	'IBERICA',
	'DEL NORTE',
	'LEVANTINA',
	'ATLANTICA',
	'CASTELLANA',
	'MEDITERRANEA',
	'ANDALUZA',
	'GALAICA',
];
const LEGAL_FORMS: Record<string, string> = {
	A: 'SA',
	B: 'SL',
	F: 'SOCIEDAD COOPERATIVA',
	J: 'SC',
	U: 'UTE',
};

export function slugify(name: string): string {
	return name
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

function generatedCompany(nif: string): Company {
	const hash = createHash('sha256').update(nif).digest();
	const legalForm = LEGAL_FORMS[nif[0]] ?? 'SL';
	const words = `${FIRST_WORDS[hash[0] % FIRST_WORDS.length]} ${SECOND_WORDS[hash[1] % SECOND_WORDS.length]}`;
	const name = `${words} ${nif.slice(1, 5)} ${legalForm}`;
	// Slugs leave the legal form out, as the real service's do.
	return { nif, name, slug: slugify(`${words} ${nif.slice(1, 5)}`) };
}

export class CompanyDirectory {
	private readonly byNif = new Map<string, Company>();

	constructor(companies: readonly Company[] = SEED_COMPANIES) {
		for (const company of companies) this.byNif.set(company.nif, company);
	}

	/** The company with this (normalised, valid) NIF, generated on first sight. */
	get(nif: string): Company {
		let company = this.byNif.get(nif);
		if (!company) {
			company = generatedCompany(nif);
			this.byNif.set(nif, company);
		}
		return company;
	}

	all(): Company[] {
		return [...this.byNif.values()];
	}
}
