// The commercial registry behind the look-ups: companies and people, their search, and the
// settings that shape what the API definition leaves open (page size, the form of next_page).
import type { CompanyDirectory } from './companies.mts';
import { SEED_COMPANIES, slugify } from './companies.mts';
import { isValidNif } from './nif.mts';
import {
	EXTRA_COMPANIES,
	fromDirectory,
	registryCompany,
	SEED_PEOPLE,
	type RegistryCompany,
	type RegistryPerson,
} from './registryData.mts';

/** Not shown by the definition: results per page. 10 here, settable to try other sizes. */
export const DEFAULT_PAGE_SIZE = 10;
/** "Search returns at most 200 results in all" (the definition). */
export const SEARCH_CAP = 200;

/** Case, accents and punctuation set aside: "Peñíscola" finds "PEÑISCOLA" (assumed, not shown). */
export const foldText = (text: string) => slugify(text).replace(/-/g, ' ');

/** Every word of the query appears in the name, in any order (assumed: the definition says "words of the name"). */
export function nameMatches(name: string, query: string): boolean {
	const folded = ` ${foldText(name)} `;
	return foldText(query)
		.split(' ')
		.every((word) => folded.includes(` ${word}`));
}

export class Registry {
	/** Results per search page. */
	pageSize = DEFAULT_PAGE_SIZE;
	/**
	 * What next_page holds: a page number ("2"), a whole URL of the next page, or its path and query
	 * without the host (all plausible: the definition does not show it).
	 */
	nextPageForm: 'number' | 'url' | 'path' = 'number';
	/** What next_page is on the last page: left out, an empty string or null (all plausible). */
	lastPageForm: 'absent' | 'empty' | 'null' = 'null';
	/** Results a search lists at most: the definition's 200; higher plays a LibreBOR that lists past it. */
	searchCap = SEARCH_CAP;

	private readonly bySlug = new Map<string, RegistryCompany>();
	private readonly people = new Map<string, RegistryPerson>();
	private readonly directory: CompanyDirectory;

	constructor(directory: CompanyDirectory) {
		this.directory = directory;
		for (const company of SEED_COMPANIES) this.add(fromDirectory(company));
		for (const company of EXTRA_COMPANIES) this.add(company);
		for (const person of SEED_PEOPLE) this.people.set(person.slug, person);
	}

	add(company: RegistryCompany): RegistryCompany {
		this.bySlug.set(company.slug, company);
		return company;
	}

	/** Adds `count` companies whose names share `words` (e.g. to fill many pages), in order. */
	addMany(count: number, words: string, overrides: Partial<RegistryCompany> = {}) {
		return Array.from({ length: count }, (_, index) =>
			this.add(
				registryCompany(`${words} ${String(index + 1).padStart(4, '0')} SL`, null, overrides),
			),
		);
	}

	/** Lists the directory's companies with these NIFs (named on first sight, as following them does). */
	addFromDirectory(nifs: readonly string[]): RegistryCompany[] {
		return nifs.map((nif) => this.add(fromDirectory(this.directory.get(nif))));
	}

	addPerson(person: RegistryPerson): RegistryPerson {
		this.people.set(person.slug, person);
		return person;
	}

	companies(): RegistryCompany[] {
		return [...this.bySlug.values()];
	}

	/** A company by slug: the registry's, or one of the directory's (followed, alerted on) by its slug. */
	companyBySlug(slug: string): RegistryCompany | undefined {
		const known = this.bySlug.get(slug);
		if (known) return known;
		const company = this.directory.all().find((candidate) => candidate.slug === slug);
		return company && this.add(fromDirectory(company));
	}

	/** A company by NIF: the registry's, or the directory's once it has seen the NIF; else unknown. */
	companyByNif(nif: string): RegistryCompany | undefined {
		const known = this.companies().find((company) => company.nif === nif);
		if (known) return known;
		const company = isValidNif(nif)
			? this.directory.all().find((candidate) => candidate.nif === nif)
			: undefined;
		return company && this.add(fromDirectory(company));
	}

	/** Companies whose name has every word of the query, in the province when given, by name. */
	searchCompanies(query: string, province?: string): RegistryCompany[] {
		const wanted = province === undefined ? undefined : foldText(province);
		return this.companies()
			.filter((company) => nameMatches(company.name, query))
			.filter((company) => wanted === undefined || foldText(company.province) === wanted)
			.sort((a, b) => a.name.localeCompare(b.name, 'es'));
	}

	searchPeople(query: string, province?: string): RegistryPerson[] {
		return [...this.people.values()]
			.filter((person) => nameMatches(person.name, query))
			.filter((person) => province === undefined || person.province === province)
			.sort((a, b) => a.name.localeCompare(b.name, 'es'));
	}

	personBySlug(slug: string): RegistryPerson | undefined {
		return this.people.get(slug);
	}
}
