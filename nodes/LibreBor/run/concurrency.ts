/**
 * Runs `task` for every index with at most `limit` in flight, and gives the results
 * back in index order. Once a task fails no new one starts: the run fails with that error
 * after the tasks already in flight have settled.
 */
export async function mapWithConcurrency<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (next < count && !failed) {
			const index = next++;
			const running = task(index);
			running.then(undefined, () => (failed = true));
			results[index] = await running;
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker);
	const settled = await Promise.allSettled(workers);
	const failure = settled.find(
		(outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
	);
	if (failure) throw failure.reason;
	return results;
}
