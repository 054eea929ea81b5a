export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Milliseconds `work` took, on the monotonic clock. */
export async function timeMs(work: () => Promise<unknown>): Promise<number> {
	const started = performance.now();
	await work();
	return performance.now() - started;
}

/** Runs `work` for each index with at most `limit` in flight. */
export async function inParallel(
	count: number,
	limit: number,
	work: (index: number) => Promise<unknown>,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) await work(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}
