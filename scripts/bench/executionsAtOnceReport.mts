// The section of BENCHMARKS.md on several executions of one account at once, under each shape of
// limit (see engine/executionsAtOnce.measure.mts), and its goals.
import type { ExecutionsAtOnceRun } from './engine/executionsAtOnce.measure.mts';
import { count, percent, table, wholeMs as ms, type Goal } from './markdown.mts';
import { LIMITED_ROUND_TRIP_MS } from './n8n/rateLimitRuns.mts';
import { refused, share } from './rateLimitReport.mts';

const ofFloor = (run: ExecutionsAtOnceRun) => run.ms / run.floorMs;
/** Without a Retry-After the node must find the wait itself, as in section 2c: 0.1x more. */
const allowedOfFloor = (run: ExecutionsAtOnceRun) => (/tastypie|nginx/.test(run.shape) ? 1.4 : 1.3);

function goalOf(run: ExecutionsAtOnceRun): Goal {
	const items = run.executions * run.itemsEach;
	const allowed = allowedOfFloor(run);
	return {
		goal: `${run.shape}, ${run.executions} executions of ${count(run.itemsEach)} follows at once: every execution successful, every item done, together within ${allowed}x of the floor, at most 10% refused`,
		measured: `${count(run.executions - run.failedExecutions)} of ${run.executions} successful, ${count(run.followed)} of ${count(items)} followed, ${ofFloor(run).toFixed(2)}x the floor, ${percent(share(run))} refused`,
		met:
			run.failedExecutions === 0 &&
			run.followed === items &&
			ofFloor(run) <= allowed &&
			share(run) <= 0.1,
	};
}

/** Section 2e, and its goals. */
export function executionsAtOnceSection(
	runs: ExecutionsAtOnceRun[] | undefined,
	goals: Goal[],
): string {
	if (!runs || runs.length === 0) return '';
	const rows = runs.map((run) => {
		goals.push(goalOf(run));
		return [
			run.shape,
			`${run.executions} x ${count(run.itemsEach)}`,
			ms(run.floorMs),
			`${ms(run.ms)} (${ofFloor(run).toFixed(2)}x)`,
			refused(run),
			`${count(run.followed)} of ${count(run.executions * run.itemsEach)}`,
			count(run.failedExecutions),
		];
	});
	return `### 2e. Several executions of one account at once

Executions with the same LibreBOR credential, each a workflow of its own following other companies, started
together in one process (n8n-core's engine, the built package), as a team's workflows run side by side on one
n8n or one queue-mode worker. LibreBOR limits the account, so they share what they learn of its limit. ${LIMITED_ROUND_TRIP_MS} ms
round trip through the proxy; nothing learned before. The time runs from the start of the first execution
to the end of the last; the floor is the least time the limit needs to admit all their requests (each
execution reads the watch list once, then follows) from the first one. Goals: every execution successful, every item done, at most 10% refused, together within
1.3x of the floor (1.4x without Retry-After).

${table(['Limit', 'Executions x items', 'Floor', 'Together (of the floor)', 'Refused (429/503)', 'Followed', 'Executions failed'], rows)}`;
}
