import type { IDataObject } from 'n8n-workflow';

import { now } from '../time/clock';
import type { Refill } from './bucketRefill';
import type { LearnedLimit } from './limitModel';
import { HOUR_MS } from '../time/units';

/**
 * What runs learned of an account's limit is used by later runs for this long after it was last
 * learned or confirmed: an account's limit can change, and a run that finds it changed learns it
 * again (a limit that fell draws a throttle at once; one that rose is found by probing).
 */
const LEARNED_LIMIT_TTL_MS = 24 * HOUR_MS;
/** Accounts this process remembers, the least recently learned forgotten first. */
const MAX_ACCOUNTS_IN_PROCESS = 100;
/** Accounts a workflow's static data remembers. */
const MAX_ACCOUNTS_STORED = 5;
/** Where in the workflow's static data ("global") the learned limits are kept. */
const STORE_KEY = 'libreBorLimits';
/** Bounds on what is read back, so that a damaged store cannot make a run wait for ever. */
const MAX_CAPACITY = 1000;
const MAX_WINDOW_MS = 2 * HOUR_MS;
const MAX_IN_FLIGHT = 1000;
const REFILLS: Refill[] = ['possible', 'confirmed', 'ruledOut'];

interface Remembered {
	/** When it was learned or last confirmed (epoch milliseconds). */
	at: number;
	limit: LearnedLimit;
}

/** One account's memory: the key of the account, and the workflow's static data when n8n keeps it. */
export interface LimitMemory {
	/** Derived from the API base URL and user, never from the password. */
	account: string;
	/** The workflow's static data; undefined where n8n does not keep it for the node. */
	store?: IDataObject;
}

/** Learned limits by account, in this process: a bounded map, the oldest entry dropped first. */
const inProcess = new Map<string, Remembered>();

const isCount = (value: unknown, most: number): value is number =>
	typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= most;

/** A learned limit read back from storage, or undefined when it is not one this version wrote. */
function validLimit(value: unknown): LearnedLimit | undefined {
	const limit = value as LearnedLimit | undefined;
	if (!limit || typeof limit !== 'object') return undefined;
	const { capacity, windowMs, inFlight, recentStarts, told, refill } = limit;
	if (inFlight !== undefined) return isCount(inFlight, MAX_IN_FLIGHT) ? { inFlight } : undefined;
	const validWindow =
		isCount(capacity, MAX_CAPACITY) &&
		typeof windowMs === 'number' &&
		windowMs > 0 &&
		windowMs <= MAX_WINDOW_MS;
	if (!validWindow) return undefined;
	const starts = Array.isArray(recentStarts)
		? recentStarts.filter((start): start is number => Number.isFinite(start)).slice(-capacity)
		: [];
	// Only a told window is ever tried as a bucket (see LimitModel).
	const known = told === true && REFILLS.includes(refill as Refill) ? { refill } : {};
	return { capacity, windowMs, recentStarts: starts, told: told === true, ...known };
}

function validRemembered(value: unknown, time: number): Remembered | undefined {
	const entry = value as Remembered | undefined;
	if (!entry || typeof entry !== 'object' || typeof entry.at !== 'number') return undefined;
	if (!(time - entry.at < LEARNED_LIMIT_TTL_MS && entry.at <= time)) return undefined;
	const limit = validLimit(entry.limit);
	return limit && { at: entry.at, limit };
}

function storedEntries(store: IDataObject, time: number): Record<string, Remembered> {
	const kept: Record<string, Remembered> = {};
	const found = store[STORE_KEY];
	if (!found || typeof found !== 'object') return kept;
	for (const [account, value] of Object.entries(found as IDataObject)) {
		const entry = validRemembered(value, time);
		if (entry) kept[account] = entry;
	}
	return kept;
}

/** The newest limit learned for the account and not expired, in this process or in the workflow. */
export function recallLimit(memory: LimitMemory): LearnedLimit | undefined {
	const time = now();
	const local = validRemembered(inProcess.get(memory.account), time);
	if (!local) inProcess.delete(memory.account);
	const stored = memory.store ? storedEntries(memory.store, time)[memory.account] : undefined;
	const newest = [local, stored]
		.filter((entry): entry is Remembered => entry !== undefined)
		.sort((a, b) => b.at - a.at)[0];
	return newest?.limit;
}

/** Keeps what a run learned of the account's limit, in this process and in the workflow. */
export function rememberLimit(memory: LimitMemory, limit: LearnedLimit): void {
	const entry: Remembered = { at: now(), limit };
	inProcess.delete(memory.account);
	inProcess.set(memory.account, entry);
	for (const oldest of inProcess.keys()) {
		if (inProcess.size <= MAX_ACCOUNTS_IN_PROCESS) break;
		inProcess.delete(oldest);
	}
	if (!memory.store) return;
	const entries = { ...storedEntries(memory.store, entry.at), [memory.account]: entry };
	const newestFirst = Object.entries(entries).sort(([, a], [, b]) => b.at - a.at);
	// A new object each time, so that n8n sees the static data changed and saves it.
	memory.store[STORE_KEY] = Object.fromEntries(
		newestFirst.slice(0, MAX_ACCOUNTS_STORED),
	) as unknown as IDataObject;
}
