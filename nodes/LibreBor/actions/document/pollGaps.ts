/**
 * When to ask LibreBOR again whether a document is ready. LibreBOR prepares documents in the
 * background, some in seconds and some in minutes: the first check comes a second after the
 * order, and each gap is a quarter longer than the one before (1 s, 1.25 s, 1.6 s, 2 s...), up to
 * Poll Interval, the longest gap. Checks then fall 1, 2.25, 3.8, 5.8, 8.2, 11.3, 15.1... seconds
 * after the order, so a document is seen ready at most a quarter of the time it took, plus a
 * second, after it was (and never more than Poll Interval after), with few checks for one that
 * takes long.
 */
const FIRST_POLL_GAP_MS = 1_000;
const POLL_GAP_GROWTH = 1.25;

/**
 * The gap before the next check, in whole milliseconds: the first one, or the last one grown,
 * never above `longestMs`.
 */
export function nextPollGap(lastGapMs: number | undefined, longestMs: number): number {
	const gap = lastGapMs === undefined ? FIRST_POLL_GAP_MS : lastGapMs * POLL_GAP_GROWTH;
	return Math.round(Math.min(gap, longestMs));
}
