// The rate-limit sections of BENCHMARKS.md: each shape of limit at each job size, the long windows,
// and the same job run twice (see n8n/rateLimitRuns.mts).
import type { RateLimit } from '../../tools/simulator/index.mts';
import { count, percent, ratio, table, wholeMs as ms, type Goal } from './markdown.mts';
import {
	BENCH_SHAPES,
	LIMITED_ROUND_TRIP_MS,
	UNLIMITED_ROUND_TRIP_MS,
	type RateLimitResult,
	type RateLimitRun,
} from './n8n/rateLimitRuns.mts';

/** What a run under a limit sent and what the limit refused of it. */
type Traffic = { requests: number; throttled: number };
/** The share of a run's requests the limit refused. */
export const share = (run: Traffic) => run.throttled / Math.max(1, run.requests);
const ofFloor = (run: RateLimitRun) => (run.floorMs > 0 ? run.ms / run.floorMs : NaN);
/** "8 of 259 (3.1%)": the requests refused, of those sent. */
export const refused = (run: Traffic) =>
	`${count(run.throttled)} of ${count(run.requests)} (${percent(share(run))})`;

/** Without a Retry-After the node must find the wait itself: its goal is 1.25x the floor, not 1.15x. */
export const allowedOfFloor = (limit: RateLimit | undefined) =>
	limit?.shape === 'sliding-log-tastypie' || limit?.shape === 'leaky-bucket-nginx' ? 1.25 : 1.15;

function firstRunGoal(node: RateLimitRun): Goal {
	const allowed = allowedOfFloor(node.limit);
	return {
		goal: `${node.shape}, ${count(node.items)} follows: every item done, within ${allowed}x of the floor, at most 10% refused`,
		measured: `${count(node.failedItems)} failed, ${ratio(ofFloor(node))} the floor, ${percent(share(node))} refused`,
		met: node.failedItems === 0 && ofFloor(node) <= allowed && share(node) <= 0.1,
	};
}

function shapeTable(runs: RateLimitRun[], shape: string, goals: Goal[]): string {
	const rows: string[][] = [];
	for (const items of [...new Set(runs.map((run) => run.items))]) {
		const node = runs.find((run) => run.via === 'LibreBOR node' && run.items === items);
		const http = runs.find((run) => run.via === 'HTTP Request node' && run.items === items);
		if (!node) continue;
		goals.push(firstRunGoal(node));
		rows.push([
			count(items),
			ms(node.floorMs),
			`${ms(node.ms)} (${ratio(ofFloor(node))})`,
			refused(node),
			count(node.failedItems),
			http ? `${ms(http.ms)} (${ratio(ofFloor(http))})` : 'n/a',
			http ? refused(http) : 'n/a',
			http ? count(http.failedItems) : 'n/a',
		]);
	}
	return `#### ${shape}

${table(
	[
		'Items',
		'Floor',
		'LibreBOR node (of the floor)',
		'Refused (429/503)',
		'Items failed',
		'HTTP Request node (of the floor)',
		'Refused',
		'Items failed',
	],
	rows,
)}`;
}

function secondRunSection(runs: RateLimitRun[], goals: Goal[]): string {
	const rows: string[][] = [];
	for (const shape of [...new Set(runs.map((run) => run.shape))]) {
		const of = (via: RateLimitRun['via'], run: RateLimitRun['run']) =>
			runs.find((r) => r.shape === shape && r.via === via && r.run === run);
		const first = of('LibreBOR node', 'first');
		const second = of('LibreBOR node', 'second');
		const http = of('HTTP Request node', 'first');
		if (!first || !second) continue;
		const limited = second.limit !== undefined;
		const against = limited ? ofFloor(second) : second.ms / (http?.ms ?? NaN);
		goals.push(
			limited
				? {
						goal: `${shape}, ${count(second.items)} follows run twice: the second within 1.15x of the floor, at most 2 refused`,
						measured: `${ratio(against)} the floor, ${count(second.throttled)} refused`,
						met: against <= 1.15 && second.throttled <= 2 && second.failedItems === 0,
					}
				: {
						goal: `No limit, ${UNLIMITED_ROUND_TRIP_MS} ms round trip, ${count(second.items)} follows run twice: the second within 1.2x of the HTTP Request node`,
						measured: ratio(against),
						met: against <= 1.2,
					},
		);
		const cell = (run: RateLimitRun) =>
			limited
				? `${ms(run.ms)} (${ratio(ofFloor(run))}), ${count(run.throttled)} refused`
				: `${ms(run.ms)} (${ratio(run.ms / (http?.ms ?? NaN))})`;
		rows.push([
			shape,
			`${count(second.roundTripMs)} ms`,
			count(second.items),
			limited ? ms(second.floorMs) : '',
			cell(first),
			cell(second),
			http
				? `${ms(http.ms)}${http.failedItems ? `, ${count(http.failedItems)} failed` : ''}`
				: 'n/a',
		]);
	}
	return `### 2d. The same job run twice: what the first run learned

The LibreBOR node's workflow runs twice in a row, following other companies the second time: the second
run starts from what the first learned of the account's limit, kept in the workflow's static data (n8n saves
it after every execution that is not manual; \`n8n execute\` is not). Under a limit, each cell is the time (of
the floor) and the requests refused; without a limit, the time and, in brackets, its ratio to the HTTP
Request node's.

${table(['Limit', 'Round trip', 'Items', 'Floor', 'First run', 'Second run', 'HTTP Request node'], rows)}`;
}

/** Sections 2c and 2d, and their goals. */
export function rateLimitSections(result: RateLimitResult | undefined, goals: Goal[]): string {
	if (!result) return '';
	const shapes = [...new Set(result.firstRuns.map((run) => run.shape))];
	const perSecond = new Set(BENCH_SHAPES.map((shape) => shape.name));
	const tables = shapes.map((shape) =>
		shapeTable(
			result.firstRuns.filter((run) => run.shape === shape),
			shape,
			goals,
		),
	);
	const longWindows = shapes.filter((shape) => !perSecond.has(shape)).length;
	return `### 2c. Under a rate limit, by shape

The simulator limits as the stacks LibreBOR may run behind do (tools/simulator/rateLimits/): a token bucket;
Django REST framework's sliding log (429 with Retry-After); tastypie's, as libreborme throttles its API (429,
no Retry-After, whole seconds, so 20 "a second" is 20 in one to two seconds); Kong's fixed window (429,
Retry-After to the window's end); nginx's \`limit_req\` without burst (503, no Retry-After, requests spaced
1/rate apart). ${LIMITED_ROUND_TRIP_MS} ms round trip through the proxy; the first run of a workflow of its own, so
nothing learned before. The floor is the least time the limit itself needs to admit the job's requests from
the run's first request (the simulator's \`floorMs\`); "refused" counts 429 and 503 answers; a node that stops
at its first refusal fails the items it did not reach. Goals: every item done, at most 10% refused, within
1.15x of the floor (1.25x without Retry-After). ${longWindows > 0 ? 'The last tables are windows of a minute and of 20 s, as an hourly-minded service may set them.' : ''}

${tables.join('\n\n')}

${secondRunSection(result.secondRuns, goals)}`;
}
