const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CIF_CONTROL_LETTERS = 'JABCDEFGHI';
const CIF_LETTER_CONTROL_ONLY = 'NPQRSW';
const CIF_DIGIT_CONTROL_ONLY = 'ABEH';

/** Upper case, no spaces, dots or dashes, no leading `ES` country prefix. */
export function normalizeNif(value: string): string {
	const compact = value.toUpperCase().replace(/[\s.-]/g, '');
	return compact.startsWith('ES') && compact.length === 11 ? compact.slice(2) : compact;
}

/**
 * What tells one company from another: the normalised NIF, with a CIF's check character in its
 * digit form where both forms are valid (J99216582 and J9921658B are one company), so that two
 * spellings of a NIF never count as two companies.
 */
export function nifKey(value: string): string {
	const nif = normalizeNif(value);
	const cif = /^([ABCDEFGHJNPQRSUVW])(\d{7})([A-J])$/.exec(nif);
	if (!cif || CIF_LETTER_CONTROL_ONLY.includes(cif[1])) return nif;
	return `${cif[1]}${cif[2]}${CIF_CONTROL_LETTERS.indexOf(cif[3])}`;
}

function dniLetter(digits: string): string {
	return DNI_LETTERS[Number(digits) % 23];
}

function cifControl(digits: string): number {
	let sum = 0;
	for (let position = 0; position < 7; position++) {
		const digit = Number(digits[position]);
		if (position % 2 === 0) {
			const doubled = digit * 2;
			sum += Math.floor(doubled / 10) + (doubled % 10);
		} else {
			sum += digit;
		}
	}
	return (10 - (sum % 10)) % 10;
}

function cifControlIsValid(first: string, digits: string, control: string): boolean {
	const expected = cifControl(digits);
	const digitForm = String(expected);
	const letterForm = CIF_CONTROL_LETTERS[expected];
	if (CIF_LETTER_CONTROL_ONLY.includes(first)) return control === letterForm;
	if (CIF_DIGIT_CONTROL_ONLY.includes(first)) return control === digitForm;
	return control === digitForm || control === letterForm;
}

/**
 * Why a normalised NIF is not a valid Spanish tax identifier, or undefined when it is.
 * Covers DNI, NIE, K/L/M and CIF (companies) with their check characters.
 */
export function explainInvalidNif(nif: string): string | undefined {
	if (nif.length !== 9) return `it has ${nif.length} characters instead of 9`;
	if (/^\d{8}[A-Z]$/.test(nif)) {
		return dniLetter(nif.slice(0, 8)) === nif[8]
			? undefined
			: 'its DNI check letter does not match';
	}
	if (/^[XYZ]\d{7}[A-Z]$/.test(nif)) {
		const digits = `${'XYZ'.indexOf(nif[0])}${nif.slice(1, 8)}`;
		return dniLetter(digits) === nif[8] ? undefined : 'its NIE check letter does not match';
	}
	if (/^[KLM]\d{7}[A-Z]$/.test(nif)) {
		return dniLetter(nif.slice(1, 8)) === nif[8] ? undefined : 'its check letter does not match';
	}
	if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(nif)) {
		return cifControlIsValid(nif[0], nif.slice(1, 8), nif[8])
			? undefined
			: 'its CIF check character does not match';
	}
	return 'it is not a DNI (8 digits and a letter), NIE (X/Y/Z, 7 digits and a letter) or CIF (a letter, 7 digits and a check character)';
}

/**
 * What kind of person's identifier a valid normalised NIF is (a DNI, an NIE, or a K/L/M NIF), or
 * undefined for a company's (CIF): only companies file annual accounts.
 */
export function personNifKind(nif: string): string | undefined {
	if (/^\d/.test(nif)) return 'DNI';
	if (/^[XYZ]/.test(nif)) return 'NIE';
	if (/^[KLM]/.test(nif)) return 'K, L or M NIF';
	return undefined;
}
