// `node scripts/bench/network.mts [job sizes...]`: the network-distance and rate-limit comparison alone
// (see n8n/networkRuns.mts), printed as JSON. Needs NODE_EXTRA_CA_CERTS like `npm run bench`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { installCommunityPackage } from '../../tools/n8n/communityPackage.mts';
import { createN8nUserFolder } from '../../tools/n8n/n8nUserFolder.mts';
import { networkRuns } from './n8n/networkRuns.mts';
import { buildAndPack } from './packageBuild.mts';
import { BenchSimulator } from './simulatorControl.mts';

async function main() {
	const sizes = process.argv.slice(2).map(Number);
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'librebor-bench-'));
	const sim = await BenchSimulator.start();
	const folder = await createN8nUserFolder();
	try {
		const packed = await buildAndPack(scratch);
		await installCommunityPackage(folder, packed.tarball);
		const runs = await networkRuns(folder, sim, sizes.length > 0 ? sizes : undefined);
		console.log(JSON.stringify(runs, null, 2));
	} finally {
		await folder.remove();
		await sim.close();
		rmSync(scratch, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.stack : error);
	process.exit(1);
});
