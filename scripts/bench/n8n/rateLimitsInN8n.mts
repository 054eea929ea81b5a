import { installCommunityPackage } from '../../../tools/n8n/communityPackage.mts';
import { createN8nUserFolder } from '../../../tools/n8n/n8nUserFolder.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { rateLimitRuns, type RateLimitResult } from './rateLimitRuns.mts';

/** The rate-limit runs (rateLimitRuns.mts) in a real n8n of their own, with the package installed from its tarball. */
export async function measureRateLimits(
	tarball: string,
	options: { sizes: number[]; longWindows: boolean },
): Promise<RateLimitResult> {
	const sim = await BenchSimulator.start();
	const folder = await createN8nUserFolder();
	try {
		await installCommunityPackage(folder, tarball);
		return await rateLimitRuns(folder, sim, options);
	} finally {
		await folder.remove();
		await sim.close();
	}
}
