// `node scripts/bench/rateLimits.mts [--quick]`: the rate-limit part of `npm run bench` alone (each
// shape of limit, the same job twice; see n8n/rateLimitRuns.mts), printed as Markdown and JSON.
// Needs NODE_EXTRA_CA_CERTS like `npm run bench`.
import { measureRateLimits } from './n8n/rateLimitsInN8n.mts';
import { RATE_LIMIT_SIZES } from './n8n/rateLimitRuns.mts';
import { runN8nSection } from './n8nSection.mts';
import { rateLimitSections } from './rateLimitReport.mts';

runN8nSection(
	'rate-limits',
	async (tarball, quick) =>
		await measureRateLimits(tarball, {
			sizes: quick ? [50] : RATE_LIMIT_SIZES,
			longWindows: !quick,
		}),
	rateLimitSections,
);
