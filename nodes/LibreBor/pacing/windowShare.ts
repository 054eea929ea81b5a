import type { StartWindow } from './startWindow';

/**
 * A share's first step after a throttle, as a part of itself (one request at least); each step
 * that held makes the next twice as large, up to half the share: what the others leave free, once
 * they finish, is taken up in a few windows, and a step too far has at most half the share
 * refused (steps of the whole share, tried, had it refused whole).
 */
const FIRST_STEP = 0.25;
const LARGEST_STEP = 0.5;
/**
 * A step that draws a throttle is taken back, and the next waits this many windows of fine answers,
 * twice as many after each step refused in a row, until a step holds: a limit that fell for good
 * costs a run alone a refused step every few windows, not every other one.
 */
const WINDOWS_AFTER_A_REFUSED_STEP = 2;
/**
 * The most windows a step waits after steps refused in a row: a share whose others leave takes its
 * next step within as many.
 */
const MOST_WINDOWS_AFTER_REFUSED_STEPS = 4;

/**
 * A window the run holds only part of: one that others spend too (the account's executions in
 * other processes, queue-mode workers), where the run got only a share through before LibreBOR's
 * Retry-After, or where it fell to half of what it held or less; or a window of one request at a
 * time that LibreBOR told to wait, which may be a small limit or a share. Either way the run keeps
 * to what held, taking a step more each time it held a while. A step refused costs this run one
 * Retry-After, when it was waiting for its window's next turn anyway.
 */
export class WindowShare {
	/** Fine answers since the share last took a step or drew a throttle. */
	private finesSinceStep = 0;
	/** The share before its last step (before any: none is above it). */
	private held = Infinity;
	private windowsBeforeStep = 1;
	private step = FIRST_STEP;
	/** The windows the next step waits if this one is refused. */
	private windowsAfterNextRefusal = WINDOWS_AFTER_A_REFUSED_STEP;

	/** A fine answer: a share that held for as many windows of them as asked takes a step more. */
	fine(window: StartWindow): void {
		if (++this.finesSinceStep < window.capacity * this.windowsBeforeStep) return;
		this.finesSinceStep = 0;
		if (window.capacity > this.held) this.windowsAfterNextRefusal = WINDOWS_AFTER_A_REFUSED_STEP;
		this.held = window.capacity;
		this.windowsBeforeStep = 1;
		window.capacity += Math.max(1, Math.floor(window.capacity * this.step));
		this.step = Math.min(LARGEST_STEP, this.step * 2);
	}

	/** The others spent the share's last step: back to what held, and the next step later and small. */
	throttled(window: StartWindow): void {
		this.finesSinceStep = 0;
		this.step = FIRST_STEP;
		if (window.capacity > this.held) {
			window.capacity = this.held;
			this.windowsBeforeStep = this.windowsAfterNextRefusal;
			this.windowsAfterNextRefusal = Math.min(
				MOST_WINDOWS_AFTER_REFUSED_STEPS,
				this.windowsAfterNextRefusal * 2,
			);
		}
	}
}
