// The section of BENCHMARKS.md on registry look-ups under a rate limit (see
// engine/registryLookups.measure.mts), and its goals.
import type { RegistryLookupRun } from './engine/registryLookups.measure.mts';
import { count, percent, ratio, table, wholeMs as ms, type Goal } from './markdown.mts';
import { LIMITED_ROUND_TRIP_MS } from './n8n/rateLimitRuns.mts';
import { allowedOfFloor, refused, share } from './rateLimitReport.mts';

const ofFloor = (run: RegistryLookupRun) => (run.floorMs > 0 ? run.ms / run.floorMs : NaN);
const items = (run: RegistryLookupRun) =>
	run.job === 'Company > Get by NIF' ? `${count(run.companies)} items` : '1 item';

function goalOf(run: RegistryLookupRun): Goal {
	const allowed = allowedOfFloor(run.limit);
	const complete = run.failed === 0 && run.withStatusAndProvince === run.companies;
	return {
		goal: `${run.job}, ${count(run.companies)} companies, ${run.shape}: every company with its status and province, within ${allowed}x of the floor`,
		measured: `${count(run.withStatusAndProvince)} of ${count(run.companies)}, ${ratio(ofFloor(run))} the floor, ${percent(share(run))} refused`,
		met: complete && ofFloor(run) <= allowed,
	};
}

const rowOf = (run: RegistryLookupRun) => [
	run.job,
	run.shape,
	items(run),
	ms(run.floorMs),
	`${ms(run.ms)} (${ratio(ofFloor(run))})`,
	refused(run),
	`${count(run.withStatusAndProvince)} of ${count(run.companies)}`,
	count(run.failed),
];

/** Section 2f, and its goals. */
export function registryLookupsSection(
	runs: RegistryLookupRun[] | undefined,
	goals: Goal[],
): string {
	if (!runs?.length) return '';
	goals.push(...runs.map(goalOf));
	return `### 2f. Registry look-ups under a rate limit

Company > Get by NIF of ${count(runs[0].companies)} companies the registry lists (an input item each), and Watch List > Get Many
with Company Details over as many followed companies (one input item: a read of the watch list, then a
look-up per company), in n8n-core's engine with the built package. Each job is the first run of a new
account (nothing learned before), through the proxy at a ${LIMITED_ROUND_TRIP_MS} ms round trip. The floor is the least time the
limit needs to admit the job's requests from its first one. Goals: every company with its \`status\` and
\`province\`, within 1.15x of the floor (1.25x without Retry-After, as in section 2c).

${table(['Job', 'Limit', 'Input', 'Floor', 'Time (of the floor)', 'Refused (429/503)', 'With status and province', 'Items failed'], runs.map(rowOf))}`;
}
