import { describe, expect, it } from 'vitest';

import type { LibreBorAlert } from '../../nodes/LibreBor/alerts/alert.ts';
import { oldestFirst } from '../../nodes/LibreBor/trigger/alertItems.ts';
import {
	forgetReadAlerts,
	isNewAlert,
	limitState,
} from '../../nodes/LibreBor/trigger/knownAlerts.ts';
import {
	readPollState,
	writePollState,
	type KnownAlert,
} from '../../nodes/LibreBor/trigger/pollState.ts';

const alertAt = (id: string, ms: number): LibreBorAlert => ({
	id,
	created_at: new Date(ms).toISOString(),
});

describe('forgetReadAlerts', () => {
	const known: KnownAlert[] = [
		['beyond-the-list', 100],
		['oldest-listed', 200],
		['read', 300],
		['listed', 400],
		['no-timestamp', null],
	];

	const MINUTE = 60_000;

	it('forgets an alert only once it is missing from 3 listings in a row over 10 minutes', () => {
		const listing = [alertAt('listed', 400), alertAt('oldest-listed', 200)];
		let state = forgetReadAlerts(known, listing, new Set(), 0);
		expect(state.map(([id]) => id)).toEqual([
			'beyond-the-list',
			'oldest-listed',
			'read',
			'listed',
			'no-timestamp',
		]);
		state = forgetReadAlerts(state, listing, new Set(), 20 * MINUTE);
		expect(state.map(([id]) => id)).toContain('read');
		state = forgetReadAlerts(state, listing, new Set(), 20 * MINUTE);
		expect(state.map(([id]) => id)).toEqual([
			'beyond-the-list',
			'oldest-listed',
			'listed',
			'no-timestamp',
		]);
	});

	it('keeps an alert missing from 3 listings within 10 minutes, and starts again when it is listed', () => {
		let state = known;
		for (const minute of [0, 1, 2, 3])
			state = forgetReadAlerts(state, [], new Set(), minute * MINUTE);
		expect(state.map(([id]) => id)).toEqual(known.map(([id]) => id));
		state = forgetReadAlerts(state, [alertAt('read', 300)], new Set(), 30 * MINUTE);
		state = forgetReadAlerts(state, [], new Set(), 31 * MINUTE);
		expect(state.find(([id]) => id === 'read')).toEqual(['read', 300, 31 * MINUTE, 1]);
	});

	it('forgets a missing alert at exactly 10 minutes over 3 listings, even when the listing is empty', () => {
		// Nothing sits beyond an empty listing: an alert without a timestamp is counted missing too.
		const missingTwice: KnownAlert[] = [
			['gone', 100, 5 * MINUTE, 2],
			['untimed', null, 5 * MINUTE, 2],
		];
		expect(forgetReadAlerts(missingTwice, [], new Set(), 15 * MINUTE - 1)).toEqual([
			['gone', 100, 5 * MINUTE, 3],
			['untimed', null, 5 * MINUTE, 3],
		]);
		expect(forgetReadAlerts(missingTwice, [], new Set(), 15 * MINUTE)).toEqual([]);
	});

	it('keeps a missing alert created at or before the oldest listed one, however long it is missing', () => {
		const missingTwice: KnownAlert[] = [
			['at-oldest', 200, 0, 2],
			['no-timestamp', null, 0, 2],
			['after-oldest', 201, 0, 2],
		];
		expect(
			forgetReadAlerts(missingTwice, [alertAt('listed', 200)], new Set(), 60 * MINUTE),
		).toEqual([
			['at-oldest', 200, 0, 2],
			['no-timestamp', null, 0, 2],
		]);
	});

	it('forgets at once an alert this trigger marked read once the listing no longer shows it', () => {
		const listing = [alertAt('read', 300), alertAt('listed', 400)];
		expect(forgetReadAlerts(known, listing, new Set(['read']), 0).map(([id]) => id)).toContain(
			'read',
		);
		expect(
			forgetReadAlerts(known, [alertAt('listed', 400)], new Set(['read']), 0).map(([id]) => id),
		).not.toContain('read');
	});
});

describe('the order of new alerts', () => {
	it('is oldest first, and the order they came in for alerts without a time (the listing is newest first)', () => {
		const listing = [{ id: 'c' }, alertAt('b', 200), { id: 'a' }, alertAt('x', 100)];
		expect(oldestFirst(listing).map(({ id }) => id)).toEqual(['x', 'b', 'a', 'c']);
	});
});

describe('isNewAlert', () => {
	it('takes an alert for new when it is not known and was created after the horizon', () => {
		const known = new Set(['seen']);
		expect(isNewAlert(alertAt('seen', 500), known, undefined)).toBe(false);
		expect(isNewAlert(alertAt('fresh', 500), known, undefined)).toBe(true);
		expect(isNewAlert(alertAt('fresh', 500), known, 500)).toBe(false);
		expect(isNewAlert(alertAt('fresh', 501), known, 500)).toBe(true);
		expect(isNewAlert({ id: 'no-timestamp' }, known, 500)).toBe(true);
	});
});

describe('limitState', () => {
	it('forgets the oldest alerts past the limit and raises the horizon over them', () => {
		const known: KnownAlert[] = [
			['c', 300],
			['a', 100],
			['d', 400],
			['b', 200],
		];
		const limited = limitState({ known, pending: ['a', 'b', 'c', 'd'], horizon: 50 }, 2);
		expect(limited.known).toEqual([
			['c', 300],
			['d', 400],
		]);
		expect(limited.horizon).toBe(200);
		expect(limited.pending).toEqual(['c', 'd']);
		expect(
			isNewAlert(alertAt('b', 200), new Set(limited.known.map(([id]) => id)), limited.horizon),
		).toBe(false);
	});

	it('remembers up to 1,000 alerts with no horizon; the 1,001st pushes out the oldest and the horizon rises to it', () => {
		const known = Array.from(
			{ length: 1_000 },
			(_, index): KnownAlert => [`alert-${index}`, 1_000 + index],
		);
		const pending = known.map(([id]) => id);
		expect(limitState({ known, pending })).toEqual({ known, pending, horizon: undefined });
		const underLimit = { known: known.slice(1), pending: pending.slice(1) };
		expect(limitState(underLimit)).toEqual({ ...underLimit, horizon: undefined });

		const limited = limitState({
			known: [...known, ['alert-1000', 2_000]],
			pending: [...pending, 'alert-1000'],
		});
		expect(limited.known).toHaveLength(1_000);
		expect(limited.known[0]).toEqual(['alert-1', 1_001]);
		expect(limited.horizon).toBe(1_000);
		expect(limited.pending).toEqual([...pending.slice(1), 'alert-1000']);
	});

	it('forgets alerts without a timestamp last, past the limit, and never raises the horizon to them', () => {
		const known: KnownAlert[] = [
			['b', null],
			['a', 100],
			['c', null],
		];
		expect(limitState({ known, pending: [] }, 1)).toEqual({
			known: [['c', null]],
			pending: [],
			horizon: 100,
		});
		expect(
			limitState(
				{
					known: [
						['b', null],
						['c', null],
					],
					pending: [],
				},
				1,
			),
		).toEqual({
			known: [['c', null]],
			pending: [],
			horizon: undefined,
		});
	});

	it('keeps an emission in flight whole when the limit forgets its alerts, for Mark as Read to mark them all', () => {
		const limited = limitState(
			{
				known: [
					['a', 100],
					['b', 200],
				],
				pending: [],
				horizon: 150,
				inFlight: [
					['one', ['a', 'b']],
					['two', ['a']],
				],
			},
			10,
		);
		expect(limited.inFlight).toEqual([
			['one', ['a', 'b']],
			['two', ['a']],
		]);
		expect(limited.known).toEqual([['b', 200]]);
	});

	it('drops known alerts the horizon already keeps out, and leaves a small state alone', () => {
		const state = {
			known: [
				['old', 100],
				['new', 300],
			] as KnownAlert[],
			pending: [],
			horizon: 100,
		};
		expect(limitState(state)).toEqual({ known: [['new', 300]], pending: [], horizon: 100 });
	});
});

describe('the oldest alert of a listing', () => {
	it('is the oldest readable timestamp, in whatever order the listing comes: alerts without one do not move it', () => {
		// Gone from the listing: kept while at or before its oldest alert (it may sit beyond a capped
		// listing), counted as missing after it.
		const gone: KnownAlert[] = [
			['before', 150],
			['after', 250],
		];
		const listing = [alertAt('c', 200), alertAt('a', 300), { id: 'b', created_at: 'soon' }];
		expect(forgetReadAlerts(gone, listing, new Set(), 0)).toEqual([
			['before', 150],
			['after', 250, 0, 1],
		]);
		// With no readable timestamp in the listing, both are counted as missing.
		expect(forgetReadAlerts(gone, [{ id: 'b' }], new Set(), 0)).toEqual([
			['before', 150, 0, 1],
			['after', 250, 0, 1],
		]);
	});
});

describe('poll state', () => {
	it('reads back what it wrote', () => {
		const staticData = {};
		writePollState(staticData, { known: [['a', 1]], pending: ['a'], horizon: 0 });
		expect(staticData).toEqual({ v: 2, known: [['a', 1]], pending: ['a'], horizon: 0 });
		expect(readPollState(staticData)).toEqual({ known: [['a', 1]], pending: ['a'], horizon: 0 });
	});

	it('leaves no horizon or emission in flight of the state it replaces', () => {
		const staticData = {};
		writePollState(staticData, {
			known: [['a', 1]],
			pending: [],
			horizon: 0,
			inFlight: [['token', ['a']]],
		});
		writePollState(staticData, { known: [], pending: [], inFlight: [] });
		expect(staticData).toStrictEqual({ v: 2, known: [], pending: [] });
	});

	it('takes another version or no state for a first poll, and skips malformed records', () => {
		expect(readPollState({})).toBeUndefined();
		expect(readPollState({ v: 3, known: [] })).toBeUndefined();
		expect(
			readPollState({
				v: 2,
				known: [
					['a', 1, 5, 1],
					['b', 2, 5],
					['c', null],
					['d', 1, 5, Infinity],
					['e', 1, 'x', 1],
					['f', NaN],
					['g', 1, 5, 1, 9],
					[7, 1],
					null,
				],
				pending: [],
			})?.known,
		).toEqual([
			['a', 1, 5, 1],
			['c', null],
		]);
		expect(
			readPollState({
				v: 2,
				known: [],
				pending: [],
				inFlight: [
					['kept', ['a']],
					['no keys'],
					['keys not a list', 'a'],
					['a key not a text', [1]],
					['one key of two not a text', ['a', 1]],
					[5, ['token not a text']],
					['one too many', ['a'], 'x'],
					'x',
				],
			})?.inFlight,
		).toEqual([['kept', ['a']]]);
		expect(readPollState({ v: 2, known: 'x', pending: 'y', horizon: Infinity })).toEqual({
			known: [],
			pending: [],
			horizon: undefined,
		});
	});

	it('reads a version 1 state, horizon included, so an upgrade emits nothing twice', () => {
		expect(
			readPollState({
				v: 1,
				known: [['a', 1], ['b'], 'c', ['d', 'x']],
				pending: ['a', 3],
				horizon: 7,
			}),
		).toEqual({
			known: [['a', 1]],
			pending: ['a'],
			horizon: 7,
		});
		expect(
			readPollState({ v: 1, known: [['a', 1], ['b'], 'c', ['d', 'x']], pending: ['a', 3] }),
		).toEqual({
			known: [['a', 1]],
			pending: ['a'],
			horizon: undefined,
		});
	});
});
