// The time the simulator reads: its rate limits, document preparation, the timestamps it writes
// and its request log. Real time by default; a test may give a simulator a ManualClock to run an
// hourly quota, or a document that takes minutes, in virtual time.
import { setTimeout as realSleep } from 'node:timers/promises';

export interface Clock {
	/** Milliseconds since the epoch. */
	now(): number;
	/** Waits this long on this clock (the simulator waits in real time when a clock has none). */
	sleep?(ms: number): Promise<void>;
}

export const systemClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms) => {
		await realSleep(ms);
	},
};

const HOUR_MS = 3_600_000;

/** Virtual time that moves only when a test moves it. */
export class ManualClock implements Clock {
	private current: number;
	private sleepers: Array<{ wakeAt: number; wake: () => void }> = [];

	/** Starts at `startMs`; by default at the start of the current hour (UTC), so every window is aligned. */
	constructor(startMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS) {
		this.current = startMs;
	}

	now(): number {
		return this.current;
	}

	/** Resolves once the clock has been moved `ms` forward, or at once when `signal` aborts. */
	sleep(ms: number, signal?: AbortSignal): Promise<void> {
		if (ms <= 0 || signal?.aborted) return Promise.resolve();
		return new Promise((wake) => {
			const sleeper = { wakeAt: this.current + ms, wake };
			this.sleepers.push(sleeper);
			signal?.addEventListener(
				'abort',
				() => {
					this.sleepers = this.sleepers.filter((other) => other !== sleeper);
					wake();
				},
				{ once: true },
			);
		});
	}

	/** How many sleeps are waiting for the clock to move. */
	get sleeping(): number {
		return this.sleepers.length;
	}

	/** When the earliest sleep is due; undefined when none waits. */
	get nextWakeAt(): number | undefined {
		return this.sleepers.length === 0
			? undefined
			: Math.min(...this.sleepers.map((sleeper) => sleeper.wakeAt));
	}

	advance(ms: number): void {
		this.set(this.current + ms);
	}

	/** Moves the clock to `ms` (never back) and wakes the sleeps that are due, earliest first. */
	set(ms: number): void {
		if (ms < this.current) throw new Error('A ManualClock never goes back');
		this.current = ms;
		const due = this.sleepers.filter((sleeper) => sleeper.wakeAt <= ms);
		this.sleepers = this.sleepers.filter((sleeper) => sleeper.wakeAt > ms);
		for (const sleeper of due.sort((a, b) => a.wakeAt - b.wakeAt)) sleeper.wake();
	}
}
