import type { StartWindow } from './startWindow';

/**
 * A share grows by this much (one request at least) after it held for a window of fine answers:
 * what the others leave free, once they finish, is taken up in a few windows.
 */
const STEP = 0.25;
/** A step that draws a throttle is taken back, and the next waits twice as many windows, up to this. */
const MAX_SPACING = 8;

/**
 * A window the run holds only part of: one that others spend too (the account's executions in
 * other processes, queue-mode workers), where the run got only a share through before LibreBOR's
 * Retry-After; or a window of one request at a time that LibreBOR told to wait, which may be a
 * small limit or a share. Either way the run keeps to what held, taking a step more each time it
 * held a while.
 */
export class WindowShare {
	/** Fine answers since the share last grew or drew a throttle. */
	private finesSinceGrowth = 0;
	/** The share before its last step. */
	private held: number | undefined;
	/** Windows of fine answers before the next step. */
	private spacing = 1;

	/** A fine answer: a share that held for `spacing` windows of them takes a step more. */
	fine(window: StartWindow): void {
		if (++this.finesSinceGrowth < window.capacity * this.spacing) return;
		this.finesSinceGrowth = 0;
		this.held = window.capacity;
		this.spacing = Math.max(1, this.spacing / 2);
		window.capacity += Math.max(1, Math.floor(window.capacity * STEP));
	}

	/** The others spent the share's last step: back to what held, and the next step later. */
	throttled(window: StartWindow): void {
		this.finesSinceGrowth = 0;
		if (this.held !== undefined && window.capacity > this.held) {
			window.capacity = this.held;
			this.spacing = Math.min(MAX_SPACING, this.spacing * 2);
		}
	}
}
