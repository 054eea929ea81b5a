// `node scripts/bench/rateLimits.mts [--quick]`: the rate-limit part of `npm run bench` alone (each
// shape of limit, the same job twice; see n8n/rateLimitRuns.mts), printed as Markdown and JSON.
// Needs NODE_EXTRA_CA_CERTS like `npm run bench`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { measureRateLimits } from './n8n/rateLimitsInN8n.mts';
import { RATE_LIMIT_SIZES } from './n8n/rateLimitRuns.mts';
import { buildAndPack } from './packageBuild.mts';
import type { Goal } from './markdown.mts';
import { rateLimitSections } from './rateLimitReport.mts';

async function main() {
	const quick = process.argv.includes('--quick');
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'librebor-bench-'));
	const started = performance.now();
	try {
		const packed = await buildAndPack(scratch);
		const result = await measureRateLimits(packed.tarball, {
			sizes: quick ? [50] : RATE_LIMIT_SIZES,
			longWindows: !quick,
		});
		const goals: Goal[] = [];
		const sections = rateLimitSections(result, goals);
		const raw = path.join(os.tmpdir(), 'librebor-bench-rate-limits.json');
		writeFileSync(raw, JSON.stringify(result));
		console.log(sections);
		for (const goal of goals)
			console.log(`${goal.met ? 'met   ' : 'MISSED'} ${goal.goal}: ${goal.measured}`);
		console.log(
			`Measured in ${Math.round((performance.now() - started) / 1000)} s; raw results in ${raw}`,
		);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.stack : error);
	process.exit(1);
});
