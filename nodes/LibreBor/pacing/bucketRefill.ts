import type { StartWindow } from './startWindow';
import type { PacedStart } from './windowProbe';

/**
 * Whether the account's limiter refills as it goes, as a token bucket does: `possible` once a
 * burst got more requests through at once than the window that holds now (the bucket refilled
 * while slow start spread the burst), `confirmed` once a request sent a refill's time after a full
 * window was let through, `ruledOut` once that request, or any paced as a bucket, was refused.
 */
export type Refill = 'possible' | 'confirmed' | 'ruledOut';

/**
 * A told window's limiter tried as a token bucket of the window's capacity, refilled at the
 * window's rate. A sliding log (Django REST framework's) lets nothing more through until the
 * window has passed, and says so with a Retry-After of about that long, so the one request tried
 * a refill's time after a full window costs a refusal, not time; a bucket lets it through, and
 * the run then keeps to the bucket, one request per refill, rather than to the window, whose
 * whole-window waits a bucket does not need.
 */
export class BucketRefill {
	/** The request sent to try the refill, while it is unanswered. */
	private trial: PacedStart | undefined;
	/** The bucket as this run's starts left it, once the refill is confirmed. */
	private bucket: { level: number; at: number } | undefined;
	/** Set when the trial was refused, until the throttle it drew, or any other event. */
	private refusedTrial = false;

	constructor(public state?: Refill) {}

	/**
	 * Milliseconds until a start fits, given `windowWait`, the window's own; the trial only when it
	 * `mayTry`, as `started` is told.
	 */
	waitMs(window: StartWindow, time: number, windowWait: number, mayTry: boolean): number {
		this.forgetUnansweredTrial(window, time);
		if (this.state === 'confirmed') {
			const level = this.levelAt(window, time);
			return Math.max(0, Math.ceil((1 - level) * tokenMs(window)));
		}
		if (this.state !== 'possible' || windowWait === 0) return windowWait;
		// While the trial is out, look again a refill later: once it is let through, the bucket paces.
		if (this.trial) return Math.min(windowWait, Math.ceil(tokenMs(window)));
		// The trial goes right after the window's newest start (a window that makes a start wait holds
		// one), where a sliding log's Retry-After is about what the window waits anyway; later in the
		// window a refusal would cost more.
		const trialAt = (window.newestStart ?? time) + tokenMs(window);
		if (!mayTry || time > trialAt + tokenMs(window)) return windowWait;
		return Math.min(windowWait, Math.max(0, Math.ceil(trialAt - time)));
	}

	/** Whether the refill is being tried or paces the run: the window is not probed meanwhile. */
	get engaged(): boolean {
		return this.state === 'possible' || this.state === 'confirmed';
	}

	/**
	 * Before the window counts `start`, which takes a token; the trial, when only the trial lets the
	 * start go now and it `mayTry`.
	 */
	started(window: StartWindow, start: PacedStart, mayTry: boolean): void {
		this.refusedTrial = false;
		this.forgetUnansweredTrial(window, start.at);
		if (this.state === 'confirmed') {
			this.bucket = { level: this.levelAt(window, start.at) - 1, at: start.at };
		} else if (mayTry && this.state === 'possible' && !this.trial && window.waitMs(start.at) > 0) {
			this.trial = start;
		}
	}

	fine(start: PacedStart): void {
		this.refusedTrial = false;
		if (start !== this.trial) return;
		this.trial = undefined;
		this.state = 'confirmed';
	}

	/**
	 * LibreBOR refused `start`. The throttle the trial's refusal draws, if any, follows at once (none
	 * when it came within a pause): any other event first means it was not the trial's.
	 */
	refused(start: PacedStart): void {
		this.refusedTrial = start === this.trial;
		if (!this.refusedTrial) return;
		this.trial = undefined;
		this.state = 'ruledOut';
	}

	/**
	 * A throttle: `trial` when the trial drew it; `paced` when the bucket paced the run, which rules
	 * the refill out (the limit fell, or others spend it too). Another request's throttle while the
	 * trial is out leaves the trial's answer telling nothing: it is tried again later.
	 */
	throttled(): 'trial' | 'paced' | undefined {
		const trial = this.refusedTrial;
		this.refusedTrial = false;
		this.bucket = undefined;
		this.trial = undefined;
		if (trial) return 'trial';
		if (this.state !== 'confirmed') return undefined;
		this.state = 'ruledOut';
		return 'paced';
	}

	/** The window turned out a share of one others spend too: their starts are not this run's to count. */
	withdraw(): void {
		if (this.state !== 'possible') return;
		this.state = undefined;
		this.trial = undefined;
	}

	/** A trial no answer settled within a window (a server error, a lost connection) is tried again later. */
	private forgetUnansweredTrial(window: StartWindow, time: number): void {
		if (this.trial && time - this.trial.at > window.windowMs) this.trial = undefined;
	}

	/**
	 * The bucket's tokens at `time`. First counted from the window: a bucket refilled at the
	 * window's rate holds at least its capacity less the starts of the last window.
	 */
	private levelAt(window: StartWindow, time: number): number {
		const bucket = (this.bucket ??= {
			level: window.capacity - window.startsSince(time - window.windowMs),
			at: time,
		});
		const refilled = bucket.level + Math.max(0, time - bucket.at) / tokenMs(window);
		return Math.min(window.capacity, refilled);
	}
}

/**
 * The time the bucket takes to refill one token: a told window is a little longer than LibreBOR
 * said (see LimitModel), for requests that reach it closer together than they started.
 */
const tokenMs = (window: StartWindow) => window.windowMs / window.capacity;
