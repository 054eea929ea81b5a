// Spanish tax identifiers as the server checks them: the tolerant rules of the field notes, on the
// NIF as sent (the node cleans up what users type), and the CIF check character, used to make valid
// identifiers for generated companies. Kept apart from the node's rules on purpose, and checked
// against them in test/simulator/simulator.test.mts.

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CIF_LETTERS = 'JABCDEFGHI';
const CIF_FIRST = 'ABCDEFGHJNPQRSUVW';
const CIF_LETTER_ONLY = 'PQRSNW';
const CIF_DIGIT_ONLY = 'ABEH';

/** The control digit (0-9) of a CIF from its seven digits. */
export function cifControlDigit(digits: string): number {
	let sum = 0;
	for (let i = 0; i < 7; i++) {
		const digit = Number(digits[i]);
		if (i % 2 === 0) {
			const doubled = digit * 2;
			sum += Math.floor(doubled / 10) + (doubled % 10);
		} else {
			sum += digit;
		}
	}
	return (10 - (sum % 10)) % 10;
}

/** A valid CIF for a first letter and seven digits, in the form that letter requires. */
export function makeCif(firstLetter: string, digits: string): string {
	const control = cifControlDigit(digits);
	const useLetter = CIF_LETTER_ONLY.includes(firstLetter);
	return `${firstLetter}${digits}${useLetter ? CIF_LETTERS[control] : String(control)}`;
}

function isValidCif(nif: string): boolean {
	if (!/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(nif)) return false;
	const first = nif[0];
	const control = cifControlDigit(nif.slice(1, 8));
	const given = nif[8];
	const asDigit = given === String(control);
	const asLetter = given === CIF_LETTERS[control];
	if (CIF_LETTER_ONLY.includes(first)) return asLetter;
	if (CIF_DIGIT_ONLY.includes(first)) return asDigit;
	return asDigit || asLetter;
}

function isValidDni(nif: string): boolean {
	if (!/^\d{8}[A-Z]$/.test(nif)) return false;
	return DNI_LETTERS[Number(nif.slice(0, 8)) % 23] === nif[8];
}

function isValidNie(nif: string): boolean {
	if (!/^[XYZ]\d{7}[A-Z]$/.test(nif)) return false;
	return isValidDni(String('XYZ'.indexOf(nif[0])) + nif.slice(1));
}

function isValidKlm(nif: string): boolean {
	if (!/^[KLM]\d{7}[A-Z]$/.test(nif)) return false;
	return DNI_LETTERS[Number(nif.slice(1, 8)) % 23] === nif[8];
}

/** True for a well-formed NIF (already normalised) with a correct control character. */
export function isValidNif(nif: string): boolean {
	if (nif.length !== 9) return false;
	if (CIF_FIRST.includes(nif[0]) && isValidCif(nif)) return true;
	return isValidDni(nif) || isValidNie(nif) || isValidKlm(nif);
}
