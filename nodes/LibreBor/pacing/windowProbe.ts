import type { StartWindow } from './startWindow';

/** A request's place in a run, from the pacer's `acquire` to its `release`: when it started. */
export interface PacedStart {
	readonly at: number;
	/** Sent once (an order): kept to the window that held, so its answer tells nothing of a narrower one. */
	readonly sentOnce?: boolean;
}

/** A probe asks for a window this much narrower than the one that held, twice as much after each that held. */
const FIRST_PROBE_STEP = 0.1;
const MAX_PROBE_STEP = 0.4;
/** A narrower window holds after this many fine answers, and one window of them (two when told). */
const FINES_TO_HOLD = 5;
/** Once a window that held and one that drew a throttle are this close, probing stops for a while. */
const CLOSE_ENOUGH = 0.03;
/** Windows held in a row before probing again, at most (doubled at each probe that failed). */
export const MAX_PROBE_SPACING = 16;

/**
 * Probing a window of starts for a higher limit. While answers stay fine the window is narrowed by
 * a step, the first start that only the narrowing allows going alone: if LibreBOR refuses it, or
 * any start before the narrower window has held, the window goes back to the one that held, and
 * the next probe waits longer and aims between the two. Once the two are close, probing pauses.
 */
export class WindowProbe {
	/** The narrowest window that held; undefined while none has. */
	heldMs: number | undefined;
	/** The widest window narrower than `heldMs` that drew a throttle. */
	private tooNarrowMs: number | undefined;
	private probing = false;
	/** The probe's first start, while it is unanswered. */
	private lead: PacedStart | undefined;
	private leadSent = false;
	private spacing = 1;
	private step = FIRST_PROBE_STEP;
	private cleanFines = 0;

	/** Probing afresh: after `spacing` windows held, from `heldMs` (an earlier run's), below none known to fail. */
	constructor(spacing = 1, heldMs?: number, tooNarrowMs?: number) {
		this.spacing = spacing;
		this.heldMs = heldMs;
		this.tooNarrowMs = tooNarrowMs;
	}

	/** Whether a narrower window is being tried. */
	get active(): boolean {
		return this.probing;
	}

	/** Milliseconds until a start fits, counting no early start while the probe's first is unanswered. */
	waitMs(window: StartWindow, time: number): number {
		const wait = window.waitMs(time);
		if (this.lead === undefined || this.heldMs === undefined) return wait;
		return Math.max(wait, window.waitMs(time, this.heldMs));
	}

	started(window: StartWindow, start: PacedStart): void {
		if (!this.probing || this.leadSent || this.heldMs === undefined) return;
		if (window.waitMs(start.at, this.heldMs) > 0) {
			this.leadSent = true;
			this.lead = start;
		}
	}

	/** A fine answer; `told`: the window came from a Retry-After, whose edges need two windows of proof. */
	fine(window: StartWindow, start: PacedStart, told: boolean): void {
		if (start === this.lead) this.lead = undefined;
		const stretch = Math.max(FINES_TO_HOLD, (told ? 2 : 1) * window.capacity);
		if (++this.cleanFines < stretch * (this.probing ? 1 : this.spacing)) return;
		this.cleanFines = 0;
		if (this.probing) {
			this.probing = false;
			this.heldMs = window.windowMs;
			this.spacing = Math.max(1, this.spacing / 2);
			this.step = Math.min(MAX_PROBE_STEP, this.step * 2);
		} else this.narrow(window);
	}

	/** A throttle: no more clean answers in a row. */
	interrupted(): void {
		this.cleanFines = 0;
		this.lead = undefined;
	}

	/** The throttle came while probing: back to what held, and probe later, nearer. */
	failed(window: StartWindow): void {
		if (this.heldMs === undefined) return;
		this.probing = false;
		this.tooNarrowMs = Math.max(this.tooNarrowMs ?? 0, window.windowMs);
		window.windowMs = this.heldMs;
		this.spacing = Math.min(MAX_PROBE_SPACING, this.spacing * 2);
		this.step = FIRST_PROBE_STEP;
	}

	/** Narrows the window for a while, unless it is already close to one that drew a throttle. */
	private narrow(window: StartWindow): void {
		const held = this.heldMs ?? window.windowMs;
		this.heldMs = held;
		let target = held * (1 - this.step);
		if (this.tooNarrowMs !== undefined) {
			if (held - this.tooNarrowMs <= held * CLOSE_ENOUGH) {
				// Close enough; forget the failure once probing would be spaced out the most.
				if (this.spacing >= MAX_PROBE_SPACING) this.tooNarrowMs = undefined;
				this.spacing = Math.min(MAX_PROBE_SPACING, this.spacing * 2);
				return;
			}
			target = Math.max(target, (held + this.tooNarrowMs) / 2);
		}
		window.windowMs = Math.max(1, target);
		this.probing = true;
		this.leadSent = false;
	}
}
