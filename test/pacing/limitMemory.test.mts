// What runs remember of an account's limit, read back by the next run: in this process, and in
// the workflow's static data that another process (or a damaged save) may have written.
// learnedLimits.test.mts runs whole jobs through it; here each entry is given, so each rule of
// what is kept, for how long and for how many accounts is checked on its own.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { recallLimit, rememberLimit } from '../../nodes/LibreBor/pacing/learnedLimits.ts';
import type { LearnedLimit } from '../../nodes/LibreBor/pacing/limitModel.ts';
import { virtualClock } from '../support/virtualTime.mts';

vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

const DAY_MS = 24 * 3_600_000;
const WINDOW: LearnedLimit = { capacity: 3, windowMs: 1000, recentStarts: [1, 2, 3], told: false };

let accounts = 0;
/** An account no other test uses: this process remembers every account of the file. */
const newAccount = () => `account-${++accounts}`;

/** What the next run reads for an account whose workflow's static data holds `entry` for it. */
function recallStored(entry: unknown): LearnedLimit | undefined {
	const account = newAccount();
	return recallLimit({ account, store: { libreBorLimits: { [account]: entry } as IDataObject } });
}

const storedNow = (limit: unknown) => recallStored({ at: virtualClock.now(), limit });

describe('in this process', () => {
	it('recalls what the last run with the account learned, for 24 hours', () => {
		const account = newAccount();
		rememberLimit({ account }, WINDOW);
		expect(recallLimit({ account })).toEqual(WINDOW);
		expect(recallLimit({ account })).toEqual(WINDOW);
		virtualClock.advance(DAY_MS - 1);
		expect(recallLimit({ account })).toEqual(WINDOW);
		virtualClock.advance(1);
		expect(recallLimit({ account })).toBeUndefined();
		expect(recallLimit({ account: newAccount() })).toBeUndefined();
	});

	it('forgets the accounts learned least recently beyond a hundred', () => {
		const [first, second, ...others] = Array.from({ length: 101 }, newAccount);
		rememberLimit({ account: first }, WINDOW);
		rememberLimit({ account: second }, WINDOW);
		rememberLimit({ account: first }, { inFlight: 9 });
		for (const account of others) rememberLimit({ account }, WINDOW);
		expect(recallLimit({ account: first })).toEqual({ inFlight: 9 });
		expect(recallLimit({ account: second })).toBeUndefined();
		expect(others.map((account) => recallLimit({ account }))).not.toContain(undefined);
	});
});

describe('in the workflow static data', () => {
	it('keeps the newest of this process and the workflow', () => {
		const account = newAccount();
		const learnedAt = virtualClock.now();
		rememberLimit({ account }, WINDOW);
		const stored = (at: number, limit: LearnedLimit) => ({
			libreBorLimits: { [account]: { at, limit } } as IDataObject,
		});
		virtualClock.advance(10);
		expect(recallLimit({ account, store: stored(learnedAt - 10, { inFlight: 5 }) })).toEqual(
			WINDOW,
		);
		expect(recallLimit({ account, store: stored(learnedAt + 5, { inFlight: 7 }) })).toEqual({
			inFlight: 7,
		});
	});

	it('reads a window with its bounds: a count from 1 to 1,000, up to two hours', () => {
		expect(storedNow({ capacity: 1, windowMs: 7_200_000 })).toEqual({
			capacity: 1,
			windowMs: 7_200_000,
			recentStarts: [],
			told: false,
		});
		// Told by a Retry-After only when the run that learned it wrote so.
		expect(storedNow({ capacity: 1, windowMs: 1000, told: true })?.told).toBe(true);
		expect(storedNow({ capacity: 1, windowMs: 1000, told: 'true' })?.told).toBe(false);
		// Whether the limiter refills, as a run wrote it, and only for a told window (bucketRefill.ts).
		const told = { capacity: 10, windowMs: 1000, told: true };
		for (const refill of ['possible', 'confirmed', 'ruledOut'])
			expect(storedNow({ ...told, refill })?.refill).toBe(refill);
		for (const refill of ['yes', true, 1])
			expect(storedNow({ ...told, refill })).not.toHaveProperty('refill');
		expect(storedNow({ ...told, told: false, refill: 'confirmed' })).not.toHaveProperty('refill');
		expect(storedNow({ capacity: 1000, windowMs: 0.5 })).toMatchObject({ capacity: 1000 });
		expect(storedNow({ inFlight: 1 })).toEqual({ inFlight: 1 });
		expect(storedNow({ inFlight: 1000 })).toEqual({ inFlight: 1000 });
	});

	it('reads nothing from an entry this version did not write', () => {
		const damaged = [
			{ capacity: 0, windowMs: 1000 },
			{ capacity: '5', windowMs: 1000 },
			{ capacity: 2.5, windowMs: 1000 },
			{ capacity: 1001, windowMs: 1000 },
			{ capacity: 5, windowMs: 0 },
			{ capacity: 5, windowMs: '1000' },
			{ capacity: 5, windowMs: 7_200_001 },
			{ inFlight: '8' },
			'a text',
			null,
		];
		for (const limit of damaged) expect(storedNow(limit), JSON.stringify(limit)).toBeUndefined();
		for (const entry of [null, 'a text', { at: String(virtualClock.now()), limit: WINDOW }])
			expect(recallStored(entry), JSON.stringify(entry)).toBeUndefined();
		expect(recallStored({ at: virtualClock.now() + 1, limit: WINDOW })).toBeUndefined();
		const account = newAccount();
		for (const libreBorLimits of ['a text', null])
			expect(recallLimit({ account, store: { libreBorLimits } })).toBeUndefined();
	});

	it('reads the finite recent starts only, the newest as many as the capacity', () => {
		const recentStarts = [1, Number.NaN, 'a text', 2, Number.POSITIVE_INFINITY, 3, 4];
		expect(storedNow({ capacity: 3, windowMs: 1000, recentStarts })?.recentStarts).toEqual([
			2, 3, 4,
		]);
		expect(storedNow({ capacity: 3, windowMs: 1000, recentStarts: 'a text' })).toEqual({
			capacity: 3,
			windowMs: 1000,
			recentStarts: [],
			told: false,
		});
	});

	it('writes a new object that drops what it could not read and keeps the five newest accounts', () => {
		const account = newAccount();
		const previous = { at: virtualClock.now(), limit: WINDOW };
		const found: IDataObject = { damaged: 'a text' };
		for (let other = 0; other < 5; other++)
			found[`other-${other}`] = { ...previous, at: previous.at - other };
		const store: IDataObject = { libreBorLimits: found };
		virtualClock.advance(1);
		rememberLimit({ account, store }, { inFlight: 12 });
		expect(store.libreBorLimits).not.toBe(found);
		expect(Object.keys(store.libreBorLimits as IDataObject)).toEqual([
			account,
			'other-0',
			'other-1',
			'other-2',
			'other-3',
		]);
		const beside: IDataObject = { libreBorLimits: 'a text' };
		rememberLimit({ account, store: beside }, { inFlight: 12 });
		expect(Object.keys(beside.libreBorLimits as IDataObject)).toEqual([account]);
	});
});
