// The instant a "Created After" date means, one text at a time: the editor's date picker saves a
// wall time without an offset, read on the workflow's time zone clocks. alertFilters.test.mts runs
// the filter whole; here each edge of the reading is given.
import { describe, expect, it } from 'vitest';

import { parseDateInTimeZone } from '../../nodes/LibreBor/time/zonedTime.ts';

const MADRID = 'Europe/Madrid';
const read = (text: string, timeZone = MADRID) => {
	const ms = parseDateInTimeZone(text, timeZone);
	return Number.isNaN(ms) ? 'not a date' : new Date(ms).toISOString();
};

describe('the instant a date text means', () => {
	it("reads a wall time on the time zone's clocks, in winter and in summer", () => {
		expect(read('2026-01-15T10:00')).toBe('2026-01-15T09:00:00.000Z');
		expect(read('2026-07-15 10:00:05')).toBe('2026-07-15T08:00:05.000Z');
		expect(read('2026-01-15T10:00', 'Asia/Kolkata')).toBe('2026-01-15T04:30:00.000Z');
		expect(read(' 2026-01-15 ')).toBe('2026-01-14T23:00:00.000Z');
	});

	it('keeps milliseconds, and no finer', () => {
		expect(read('2026-01-15T10:00:00.5')).toBe('2026-01-15T09:00:00.500Z');
		expect(read('2026-01-15T10:00:00.123456')).toBe('2026-01-15T09:00:00.123Z');
	});

	it('reads a wall time around a clock change: skipped forward, and the second of a repeated hour', () => {
		expect(read('2026-03-29T02:30')).toBe('2026-03-29T01:30:00.000Z');
		expect(read('2026-10-25T02:30')).toBe('2026-10-25T01:30:00.000Z');
	});

	it('reads a text with an offset as written', () => {
		expect(read('2026-01-15T10:00:00+01:00')).toBe('2026-01-15T09:00:00.000Z');
		expect(read('2026-01-15T10:00:00Z')).toBe('2026-01-15T10:00:00.000Z');
	});

	it('refuses a day or a time that does not exist, up to the last second of a day', () => {
		for (const text of [
			'2026-02-30',
			'2026-13-01',
			'2026-01-01T24:00',
			'2026-01-01T23:60',
			'2026-01-01T23:59:60',
			'yesterday',
		])
			expect(read(text), text).toBe('not a date');
		expect(read('2026-01-01T23:59:59')).toBe('2026-01-01T22:59:59.000Z');
	});

	it('reads a wall time as the platform does when the time zone is unknown', () => {
		const text = '2026-01-15T10:00';
		expect(parseDateInTimeZone(text, 'Nowhere/Unknown')).toBe(Date.parse(text));
	});
});
