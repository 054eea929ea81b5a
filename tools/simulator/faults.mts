// Queue of injected faults. The first queued fault that matches a request is applied to it and
// used up; a fault with `times` greater than one stays in place until spent.
import { requestMatches } from './requestMatcher.mts';
import type { Fault, FaultHandle, LoggedRequest } from './types.mts';

interface QueuedFault {
	fault: Fault;
	remaining: number;
	hits: number;
}

export class FaultQueue {
	private queue: QueuedFault[] = [];

	inject(fault: Fault): FaultHandle {
		const queued: QueuedFault = { fault, remaining: fault.times ?? 1, hits: 0 };
		if (queued.remaining > 0) this.queue.push(queued);
		return {
			fault,
			get hits() {
				return queued.hits;
			},
			get remaining() {
				return queued.remaining;
			},
			cancel: () => {
				queued.remaining = 0;
				this.queue = this.queue.filter((entry) => entry !== queued);
			},
		};
	}

	/** The fault for this request, if any, counted as used. */
	take(request: LoggedRequest): Fault | undefined {
		const index = this.queue.findIndex((entry) => requestMatches(entry.fault, request));
		if (index < 0) return undefined;
		const queued = this.queue[index];
		queued.hits++;
		queued.remaining--;
		if (queued.remaining <= 0) this.queue.splice(index, 1);
		return queued.fault;
	}

	clear(): void {
		for (const queued of this.queue) queued.remaining = 0;
		this.queue = [];
	}

	get pending(): number {
		return this.queue.length;
	}
}

/** Whether the fault replaces the answer, rather than only delaying it or adding headers. */
export function replacesAnswer(fault: Fault): boolean {
	return fault.status !== undefined || fault.body !== undefined;
}
