import { sleep } from '../time/clock';

export type TransferStop = 'deadline' | 'size' | 'cancelled';

export interface WatchedBody {
	emit(event: string | symbol, ...args: unknown[]): boolean;
	on(event: 'close', listener: () => void): unknown;
	destroy(error?: Error): unknown;
}

export interface TransferGuard {
	/** Passed to the request, so that a deadline or a cancel also stops it before the headers. */
	signal: AbortSignal;
	/** Why the guard stopped the transfer, once it has. */
	readonly stoppedBy: TransferStop | undefined;
	/** Counts the body's bytes as its consumer receives them, and stops it past the size limit. */
	watch(body: WatchedBody): void;
	/** Stops listening for the deadline and the cancel; the transfer is over. */
	dispose(): void;
}

/**
 * Bounds one transfer in time (a deadline for the whole of it, headers and body), in size, and by
 * the execution's cancel signal. It observes the body without replacing it: the consumer reads the
 * same stream, and a stopped transfer ends it with an error, so no partial file is ever complete.
 */
export function guardTransfer(limits: {
	deadlineMs: number;
	maxBytes: number;
	cancelSignal?: AbortSignal;
}): TransferGuard {
	const controller = new AbortController();
	let body: WatchedBody | undefined;
	let stoppedBy: TransferStop | undefined;

	const stop = (reason: TransferStop) => {
		if (stoppedBy) return;
		stoppedBy = reason;
		controller.abort();
		body?.destroy(new Error(`transfer stopped: ${reason}`));
	};
	const onCancel = () => stop('cancelled');
	const disposed = new AbortController();
	void sleep(limits.deadlineMs, disposed.signal).then(() => {
		if (!disposed.signal.aborted) stop('deadline');
	});
	limits.cancelSignal?.addEventListener('abort', onCancel);
	if (limits.cancelSignal?.aborted) stop('cancelled');

	const dispose = () => {
		disposed.abort();
		limits.cancelSignal?.removeEventListener('abort', onCancel);
	};

	return {
		signal: controller.signal,
		get stoppedBy() {
			return stoppedBy;
		},
		watch(watched) {
			body = watched;
			let bytes = 0;
			// Counted where the consumer receives them. A 'data' listener would start the flow
			// before n8n's binary store listens, and lose the first chunks.
			const emit = watched.emit.bind(watched);
			watched.emit = (event, ...args) => {
				if (event === 'data') {
					bytes += (args[0] as { length: number }).length;
					if (bytes > limits.maxBytes) {
						stop('size');
						return false;
					}
				}
				return emit(event, ...args);
			};
			watched.on('close', dispose);
			if (stoppedBy) watched.destroy(new Error(`transfer stopped: ${stoppedBy}`));
		},
		dispose,
	};
}
