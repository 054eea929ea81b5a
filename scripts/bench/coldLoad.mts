import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { repoRoot } from '../../tools/repoPaths.mts';
import { median } from './stats.mts';

const PACKAGE_FILES = [
	'dist/nodes/LibreBor/LibreBor.node.js',
	'dist/nodes/LibreBor/LibreBorTrigger.node.js',
	'dist/credentials/LibreBorApi.credentials.js',
].map((file) => path.join(repoRoot, file));

export interface ColdLoadResult {
	runs: number;
	/** With n8n-workflow already loaded, as it is inside n8n. */
	packageMs: number;
	/** Including the first load of n8n-workflow, the package's only import. */
	withN8nWorkflowMs: number;
}

/** Milliseconds a fresh Node process takes to require the package's nodes and credential. */
function timeRequire(preloadN8nWorkflow: boolean): number {
	const script = `
		${preloadN8nWorkflow ? "require('n8n-workflow');" : ''}
		const started = performance.now();
		for (const file of ${JSON.stringify(PACKAGE_FILES)}) require(file);
		process.stdout.write(String(performance.now() - started));
	`;
	return Number(
		execFileSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8' }),
	);
}

export function measureColdLoad(runs: number): ColdLoadResult {
	const packageOnly: number[] = [];
	const withN8nWorkflow: number[] = [];
	for (let run = 0; run < runs; run++) {
		packageOnly.push(timeRequire(true));
		withN8nWorkflow.push(timeRequire(false));
	}
	return { runs, packageMs: median(packageOnly), withN8nWorkflowMs: median(withN8nWorkflow) };
}
