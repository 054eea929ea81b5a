import { makeCif } from '../../tools/simulator/nif.mts';

/** `count` distinct, valid company NIFs (CIFs of limited companies), the same on every call. */
export function companyNifs(count: number): string[] {
	return Array.from({ length: count }, (_, index) =>
		makeCif('B', String(7_000_000 + index).padStart(7, '0')),
	);
}
