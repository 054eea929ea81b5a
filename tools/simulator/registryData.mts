// What the registry look-ups answer about: companies (with or without a NIF, names with and
// without accents) and people with their posts. Only the shapes come from the API definition;
// the values are made up.
import { createHash } from 'node:crypto';
import { slugify } from './companies.mts';
import type { Company } from './types.mts';

export type CompanyStatus = 'active' | 'inactive' | 'dissolved' | 'renamed' | 'transformed';

/** A company as the registry holds it: the search result's fields and a few details. */
export interface RegistryCompany {
	slug: string;
	name: string;
	/** Null for a company known only from the bulletin (the definition shows `nif` nullable). */
	nif: string | null;
	province: string;
	status: CompanyStatus;
	last_update: string;
	address: string;
	capital: number;
	purpose: string;
	date_creation: string;
}

/** A post a person holds or held in a company. */
export interface PersonPost {
	slug_company: string;
	name_company: string;
	role: string;
	date_from: string | null;
	date_to: string | null;
}

export interface RegistryPerson {
	slug: string;
	name: string;
	province: string;
	last_update: string;
	posts: PersonPost[];
}

/** Spain's INE province codes (1 to 52), which person search takes; results carry the name. */
// prettier-ignore
export const INE_PROVINCES = [
	'Araba/Álava', 'Albacete', 'Alicante', 'Almería', 'Ávila', 'Badajoz', 'Illes Balears',
	'Barcelona', 'Burgos', 'Cáceres', 'Cádiz', 'Castellón', 'Ciudad Real', 'Córdoba', 'A Coruña',
	'Cuenca', 'Girona', 'Granada', 'Guadalajara', 'Gipuzkoa', 'Huelva', 'Huesca', 'Jaén', 'León',
	'Lleida', 'La Rioja', 'Lugo', 'Madrid', 'Málaga', 'Murcia', 'Navarra', 'Ourense', 'Asturias',
	'Palencia', 'Las Palmas', 'Pontevedra', 'Salamanca', 'Santa Cruz de Tenerife', 'Cantabria',
	'Segovia', 'Sevilla', 'Soria', 'Tarragona', 'Teruel', 'Toledo', 'Valencia', 'Valladolid',
	'Bizkaia', 'Zamora', 'Zaragoza', 'Ceuta', 'Melilla',
];

const STATUSES: CompanyStatus[] = ['active', 'active', 'active', 'inactive', 'dissolved'];
const PROVINCES = ['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Zaragoza', 'Málaga'];

function digest(text: string): Buffer {
	return createHash('sha256').update(text).digest();
}

/** A registry record for a company, its details drawn from its name so that they stay the same. */
export function registryCompany(
	name: string,
	nif: string | null,
	overrides: Partial<RegistryCompany> = {},
): RegistryCompany {
	const hash = digest(name);
	const year = 1980 + (hash[2] % 40);
	return {
		slug: slugify(name.replace(/\s+(SA|SL|SC|SLU|SOCIEDAD COOPERATIVA)$/, '')),
		name,
		nif,
		province: PROVINCES[hash[0] % PROVINCES.length],
		status: STATUSES[hash[1] % STATUSES.length],
		last_update: `2025-0${1 + (hash[3] % 9)}-1${hash[4] % 10}`,
		address: `Calle Mayor ${1 + (hash[5] % 90)}, ${PROVINCES[hash[0] % PROVINCES.length]}`,
		capital: 3000 * (1 + (hash[6] % 100)),
		purpose: 'Actividades de consultoría y gestión empresarial.',
		date_creation: `${year}-0${1 + (hash[7] % 9)}-15`,
		...overrides,
	};
}

/** The registry's record of a company of the simulator's directory (slug and NIF kept). */
export const fromDirectory = (company: Company, overrides: Partial<RegistryCompany> = {}) =>
	registryCompany(company.name, company.nif, { slug: company.slug, ...overrides });

/** Names with accents and a company LibreBOR knows no NIF for, besides the directory's companies. */
export const EXTRA_COMPANIES: readonly RegistryCompany[] = [
	registryCompany('PANADERÍA SEÑORÍO DE ÁVILA SL', 'B05123450', {
		province: 'Ávila',
		status: 'active',
	}),
	registryCompany('CONSTRUCCIONES PEÑÍSCOLA SA', 'A12000006', {
		province: 'Castellón',
		status: 'dissolved',
	}),
	registryCompany('CERÁMICA DEL NORTE SL', 'B48000004', { province: 'Bizkaia', status: 'active' }),
	registryCompany('COMERCIAL BOLETÍN ANTIGUO SL', null, { province: 'Madrid', status: 'inactive' }),
];

export const SEED_PEOPLE: readonly RegistryPerson[] = [
	{
		slug: 'garcia-lopez-maria',
		name: 'GARCIA LOPEZ MARIA',
		province: 'Madrid',
		last_update: '2025-03-14',
		posts: [
			{
				slug_company: 'brisas-del-llobregat',
				name_company: 'BRISAS DEL LLOBREGAT SL',
				role: 'Adm. Unico',
				date_from: '2019-05-02',
				date_to: null,
			},
			{
				slug_company: 'construcciones-peniscola',
				name_company: 'CONSTRUCCIONES PEÑÍSCOLA SA',
				role: 'Consejero',
				date_from: '2010-01-20',
				date_to: null,
			},
			{
				slug_company: 'brisas-del-llobregat',
				name_company: 'BRISAS DEL LLOBREGAT SL',
				role: 'Apoderado',
				date_from: '2015-02-11',
				date_to: '2019-05-02',
			},
		],
	},
	{
		slug: 'ibanez-ortega-jordi',
		name: 'IBAÑEZ ORTEGA JORDI',
		province: 'Barcelona',
		last_update: '2024-11-02',
		posts: [
			{
				slug_company: 'altamira-infraestructuras',
				name_company: 'ALTAMIRA INFRAESTRUCTURAS SA',
				role: 'Presidente',
				date_from: '2021-07-01',
				date_to: null,
			},
		],
	},
	{
		slug: 'garcia-navarro-jose',
		name: 'GARCÍA NAVARRO JOSÉ',
		province: 'Sevilla',
		last_update: '2023-06-30',
		posts: [],
	},
];
