// The registry's records as the look-up endpoints show them (the shapes of the API definition).
import type { RegistryCompany, RegistryPerson } from './registryData.mts';

const CIF_LEGAL_FORMS: Record<string, string> = {
	A: 'Sociedad Anónima',
	B: 'Sociedad de Responsabilidad Limitada',
	F: 'Sociedad Cooperativa',
	J: 'Sociedad Civil',
	U: 'Unión Temporal de Empresas',
};

export const searchResultOf = (company: RegistryCompany) => ({
	name: company.name,
	slug: company.slug,
	province: company.province,
	status: company.status,
	last_update: company.last_update,
});

export const personSearchResultOf = (person: RegistryPerson) => ({
	slug: person.slug,
	name: person.name,
	province: person.province,
	last_update: person.last_update,
});

/** Acts, announcements and bulletins are left empty: the look-ups under test do not read them. */
const noActs = () => ({
	actions: [],
	total_actions: 0,
	announcements: [],
	total_announcements: 0,
	bormes: [],
	total_bormes: 0,
});

export function companyView(company: RegistryCompany) {
	const dissolved = company.status === 'dissolved';
	return {
		...searchResultOf(company),
		nif: company.nif,
		address: company.address,
		begin_activity: company.date_creation,
		capital: company.capital,
		purpose: company.purpose,
		date_creation: company.date_creation,
		date_dissolution: dissolved ? '2024-12-31' : null,
		date_extinction: null,
		reason_dissolution: dissolved ? 'Voluntaria' : null,
		...noActs(),
		active_positions: [],
		total_active_positions: 0,
		inactive_positions: [],
		total_inactive_positions: 0,
	};
}

export const incorporationView = (company: RegistryCompany) => ({
	date: company.date_creation,
	incorporation_registry_data: `T 1234, F 56, S 8, H M 78901, I/A 1 (${company.date_creation})`,
	slug: company.slug,
	name: company.name,
	nif: company.nif,
});

/**
 * A person's posts. Which position shape a person's posts take is not shown: the company's side
 * (CompanyPosition: slug_company, name_company) is the one that names where the post is.
 */
export function personView(person: RegistryPerson) {
	const posts = person.posts.map((post) => ({ ...post, type: 'Company' }));
	const active = posts.filter((post) => post.date_to === null);
	const inactive = posts.filter((post) => post.date_to !== null);
	return {
		...personSearchResultOf(person),
		...noActs(),
		acts: [],
		active_positions: active,
		total_active_positions: active.length,
		inactive_positions: inactive,
		total_inactive_positions: inactive.length,
	};
}

/** NIF information: a CIF is a company's (its legal form from its first letter), a DNI or NIE a person's. */
export function nifInfoView(nif: string, valid: boolean, company: RegistryCompany | undefined) {
	if (!valid) return { nif, valid: false, nif_data: null };
	const isPerson = /^[0-9XYZKLM]/.test(nif);
	return {
		nif,
		valid: true,
		nif_data: {
			company_type: isPerson ? null : (CIF_LEGAL_FORMS[nif[0]] ?? 'Otras'),
			register_province: company?.province ?? null,
			type: isPerson ? 'PERSON' : 'COMPANY',
		},
	};
}
