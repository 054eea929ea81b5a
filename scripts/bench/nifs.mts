import { makeCif } from '../../tools/simulator/nif.mts';

/** `count` distinct, valid company NIFs (CIFs of limited companies), the same on every call. */
export function companyNifs(count: number): string[] {
	return Array.from({ length: count }, (_, index) =>
		makeCif('B', String(7_000_000 + index).padStart(7, '0')),
	);
}

/**
 * `count` (at most 1,000) distinct company NIFs whose names and slugs differ too: the simulator names
 * a company it has not seen from the first four digits of its NIF, which companyNifs shares.
 */
export function namedCompanyNifs(count: number): string[] {
	if (count > 1000) throw new Error('namedCompanyNifs gives 1,000 NIFs at most');
	return Array.from({ length: count }, (_, index) => makeCif('B', `${1000 + index}000`));
}
