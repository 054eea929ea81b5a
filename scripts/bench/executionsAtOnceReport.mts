// The sections of BENCHMARKS.md on several executions of one account at once, under each shape of
// limit: in n8n-core's engine (section 2e, engine/executionsAtOnce.measure.mts) and in a real n8n,
// in one process and in queue mode (section 2g, n8n/executionsAtOnceInN8n.mts); and their goals.
import type { ExecutionsAtOnceRun } from './engine/executionsAtOnce.measure.mts';
import { count, percent, table, wholeMs as ms, type Goal } from './markdown.mts';
import type { ExecutionsAtOnceInN8nResult, SpentQuotaRun } from './n8n/executionsAtOnceInN8n.mts';
import { LIMITED_ROUND_TRIP_MS } from './n8n/rateLimitRuns.mts';
import { refused, share } from './rateLimitReport.mts';

const ofFloor = (run: ExecutionsAtOnceRun) => run.ms / run.floorMs;
/** Without a Retry-After the node must find the wait itself, as in section 2c: 0.1x more. */
const allowedOfFloor = (run: ExecutionsAtOnceRun) => (/tastypie|nginx/.test(run.shape) ? 1.4 : 1.3);

function goalOf(run: ExecutionsAtOnceRun, where = ''): Goal {
	const items = run.executions * run.itemsEach;
	const allowed = allowedOfFloor(run);
	return {
		goal: `${where}${run.shape}, ${run.executions} executions of ${count(run.itemsEach)} follows at once: every execution successful, every item done, together within ${allowed}x of the floor, at most 10% refused`,
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

/** A spent quota: every execution done or stopped within its budget, saying how many of its items were done. */
function spentQuotaGoal(run: SpentQuotaRun): Goal {
	// The executions' counts may fall short of what LibreBOR did (once in queue mode: 299 said, 300
	// followed; running the items not done again skips a company already followed), never exceed it.
	const told = run.successful + run.saidHowMany === run.executions && run.doneSaid <= run.followed;
	return {
		goal: `In n8n, ${run.setUp}: an hourly quota of ${count(run.quotaFollows)} follows spent by ${run.executions} executions of ${count(run.itemsEach)}: each stops within its time budget (${ms(run.budgetMs)}), saying "N of ${count(run.itemsEach)} items were done", the N adding up to no more than was followed`,
		measured: `${count(run.followed)} followed, ${run.saidHowMany} of ${run.executions} stopped saying how many (${count(run.doneSaid)} done in all), ${run.successful} done in full, all within ${ms(run.ms)}`,
		// The quota is spent: its follows, and one more for each execution stopped before it read the
		// watch list (a read LibreBOR refused leaves its place to a follow).
		met:
			told &&
			run.ms <= run.budgetMs &&
			run.followed >= run.quotaFollows &&
			run.followed <= run.quotaFollows + run.executions,
	};
}

/** Section 2g, and its goals. */
export function executionsAtOnceInN8nSection(
	result: ExecutionsAtOnceInN8nResult | undefined,
	goals: Goal[],
): string {
	if (!result || result.runs.length + result.spentQuota.length === 0) return '';
	const rows = result.runs.map((run) => {
		goals.push(goalOf(run, `In n8n, ${run.setUp}: `));
		return [
			run.setUp,
			run.shape,
			ms(run.floorMs),
			`${ms(run.ms)} (${ofFloor(run).toFixed(2)}x)`,
			refused(run),
			`${count(run.followed)} of ${count(run.executions * run.itemsEach)}`,
			`${count(run.executions - run.failedExecutions)} of ${run.executions}`,
			run.ranOn,
		];
	});
	const quotaRows = result.spentQuota.map((run) => {
		goals.push(spentQuotaGoal(run));
		return [
			run.setUp,
			run.shape,
			`${count(run.followed)} of ${count(run.quotaFollows)}`,
			`${run.saidHowMany} of ${run.executions}`,
			count(run.doneSaid),
			`${ms(run.ms)} (budget ${ms(run.budgetMs)})`,
			[...new Set(run.errors.map((error) => error.replace(/\d+ of/, 'N of')))].join('; '),
		];
	});
	return `### 2g. Several executions of one account at once, in a real n8n

The case of section 2e in a real n8n 2.41.1 with the packed package: one published workflow (Webhook, Split
Out, LibreBOR Follow) whose webhook is called four times at once, each call following 150 other companies with
the same credential. In one regular n8n process, and in queue mode (a main process and 2 workers taking 2
executions each, Postgres and Redis), where nothing of the node's memory is shared between the workers. The
simulator in a process of its own, ${LIMITED_ROUND_TRIP_MS} ms round trip through the proxy, each case a new account. The time
runs from the start of the first execution to the end of the last, as n8n recorded them; the floor is the
least time the limit needs to admit all their requests from the first one. Goals as in section 2e.
One run of each case: in queue mode the same case moves from run to run with how the two workers' starts
fall (docs/performance.md gives its range over many runs).

${table(['Set-up', 'Limit', 'Floor', 'Together (of the floor)', 'Refused (429/503)', 'Followed', 'Executions successful', 'Executions per process'], rows)}

An hourly quota smaller than the job: the executions must stop at once (\`Retry-After\` asks for far more than
the Time Budget of 5 minutes), each saying how many of its items were done.

${table(['Set-up', 'Limit', 'Followed (of the quota)', 'Stopped saying how many', 'Done, by their messages', 'Time', 'Messages'], quotaRows)}`;
}
