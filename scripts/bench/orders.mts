// `node scripts/bench/orders.mts [order counts...]`: the orders comparison alone (see
// n8n/orderRuns.mts), printed as the report's table and as JSON. Needs NODE_EXTRA_CA_CERTS like
// `npm run bench`; `--quick` runs each job once instead of three times.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { measureOrdersInRealN8n, ORDER_COUNTS } from './n8n/orderRuns.mts';
import { ordersSection } from './orderReport.mts';
import { buildAndPack } from './packageBuild.mts';

async function main() {
	const quick = process.argv.includes('--quick');
	const counts = process.argv
		.slice(2)
		.filter((arg) => arg !== '--quick')
		.map(Number);
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'librebor-bench-'));
	try {
		const packed = await buildAndPack(scratch);
		const orders = await measureOrdersInRealN8n(packed.tarball, {
			counts: counts.length > 0 ? counts : ORDER_COUNTS,
			repetitions: quick ? 1 : 3,
		});
		const goals: Array<{ goal: string; measured: string; met: boolean }> = [];
		console.log(ordersSection(orders, undefined, goals));
		console.log(
			goals
				.map((goal) => `${goal.met ? 'met' : 'MISSED'}: ${goal.goal}: ${goal.measured}`)
				.join('\n'),
		);
		console.log(JSON.stringify(orders, null, 2));
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.stack : error);
	process.exit(1);
});
