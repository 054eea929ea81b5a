import { describe, expect, it } from 'vitest';

import type { LibreBorAlert } from '../../nodes/LibreBor/helpers/alerts.ts';
import {
	forgetReadAlerts,
	isNewAlert,
	limitState,
	oldestCreatedAt,
} from '../../nodes/LibreBor/trigger/knownAlerts.ts';
import { readPollState, writePollState, type KnownAlert } from '../../nodes/LibreBor/trigger/pollState.ts';

const alertAt = (id: string, ms: number): LibreBorAlert => ({ id, created_at: new Date(ms).toISOString() });

describe('forgetReadAlerts', () => {
	const known: KnownAlert[] = [
		['beyond-the-list', 100],
		['oldest-listed', 200],
		['read', 300],
		['listed', 400],
		['no-timestamp', null],
	];

	it('forgets what is missing from the listing and newer than its oldest alert, and keeps the rest', () => {
		const listing = [alertAt('listed', 400), alertAt('oldest-listed', 200)];
		expect(forgetReadAlerts(known, listing).map(([id]) => id)).toEqual([
			'beyond-the-list',
			'oldest-listed',
			'listed',
			'no-timestamp',
		]);
	});

	it('forgets everything when nothing is unread', () => {
		expect(forgetReadAlerts(known, [])).toEqual([]);
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
		expect(isNewAlert(alertAt('b', 200), new Set(limited.known.map(([id]) => id)), limited.horizon)).toBe(false);
	});

	it('drops known alerts the horizon already keeps out, and leaves a small state alone', () => {
		const state = { known: [['old', 100], ['new', 300]] as KnownAlert[], pending: [], horizon: 100 };
		expect(limitState(state)).toEqual({ known: [['new', 300]], pending: [], horizon: 100 });
	});
});

describe('oldestCreatedAt', () => {
	it('ignores alerts without a readable timestamp', () => {
		expect(oldestCreatedAt([alertAt('a', 300), { id: 'b', created_at: 'soon' }, alertAt('c', 200)])).toBe(200);
		expect(oldestCreatedAt([{ id: 'b' }])).toBeUndefined();
	});
});

describe('poll state', () => {
	it('reads back what it wrote', () => {
		const staticData = {};
		writePollState(staticData, { known: [['a', 1]], pending: ['a'], horizon: 0 });
		expect(staticData).toEqual({ v: 1, known: [['a', 1]], pending: ['a'], horizon: 0 });
		expect(readPollState(staticData)).toEqual({ known: [['a', 1]], pending: ['a'], horizon: 0 });
	});

	it('takes another version or no state for a first poll, and skips malformed records', () => {
		expect(readPollState({})).toBeUndefined();
		expect(readPollState({ v: 2, known: [] })).toBeUndefined();
		expect(readPollState({ v: 1, known: [['a', 1], ['b'], 'c', ['d', 'x']], pending: ['a', 3] })).toEqual({
			known: [['a', 1]],
			pending: ['a'],
			horizon: undefined,
		});
	});
});
