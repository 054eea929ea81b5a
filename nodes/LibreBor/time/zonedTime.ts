/** A date, or a date and time, with no offset: what the editor's date picker saves. */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

/** How far `timeZone`'s clocks are ahead of UTC at the instant `utcMs`. */
function offsetAt(utcMs: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const part = (type: Intl.DateTimeFormatPartTypes) =>
		Number(parts.find((found) => found.type === type)?.value);
	const clock = Date.UTC(
		part('year'),
		part('month') - 1,
		part('day'),
		part('hour'),
		part('minute'),
		part('second'),
	);
	return clock - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The instant a date text means: one without an offset is a time on the clocks of `timeZone`
 * (the workflow's, as the editor shows it), one with an offset or a `Z` is read as written.
 * NaN when it is not a date.
 */
export function parseDateInTimeZone(text: string, timeZone: string): number {
	const wall = WALL_TIME.exec(text.trim());
	if (!wall) return Date.parse(text);
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0'] = wall;
	const asUtc = Date.UTC(
		+year,
		+month - 1,
		+day,
		+hour,
		+minute,
		+second,
		Number(fraction.padEnd(3, '0').slice(0, 3)),
	);
	// A day that the month lacks (00, 30 February…) rolls over into another month.
	if (new Date(asUtc).getUTCMonth() !== +month - 1 || +hour > 23 || +minute > 59 || +second > 59)
		return NaN;
	try {
		// Twice: the offset at the guess may differ from the one at the answer around a clock change.
		const guess = asUtc - offsetAt(asUtc, timeZone);
		return asUtc - offsetAt(guess, timeZone);
	} catch {
		return Date.parse(text);
	}
}
