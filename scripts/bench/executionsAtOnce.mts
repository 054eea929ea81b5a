// `node scripts/bench/executionsAtOnce.mts [--quick]`: several executions of one account at once
// under each shape of limit (section 2e of `npm run bench`), alone, printed as Markdown; about 5
// minutes (`--quick`: DRF's 20/s only). Builds the package first. Needs NODE_EXTRA_CA_CERTS like
// `npm run bench`.
import { execFileSync } from 'node:child_process';

import type { ExecutionsAtOnceRun } from './engine/executionsAtOnce.measure.mts';
import { executionsAtOnceSection } from './executionsAtOnceReport.mts';
import type { Goal } from './markdown.mts';
import { runInEngine } from './runInEngine.mts';

async function main() {
	const quick = process.argv.includes('--quick');
	execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
	const runs = await runInEngine<ExecutionsAtOnceRun[]>(
		'executionsAtOnce',
		quick ? { BENCH_QUICK: '1' } : {},
	);
	const goals: Goal[] = [];
	console.log(executionsAtOnceSection(runs, goals));
	for (const goal of goals)
		console.log(`${goal.met ? 'met   ' : 'MISSED'} ${goal.goal}: ${goal.measured}`);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.stack : error);
	process.exit(1);
});
