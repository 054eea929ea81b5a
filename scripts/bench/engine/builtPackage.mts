import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { INodeType } from 'n8n-workflow';

const require = createRequire(import.meta.url);

/** The built nodes, loaded by Node's own `require` from dist/ as n8n loads them (build first). */
export function builtNodes(): {
	LibreBor: new () => INodeType;
	LibreBorTrigger: new () => INodeType;
} {
	const { LibreBor } = require('../../../dist/nodes/LibreBor/LibreBor.node.js') as {
		LibreBor: new () => INodeType;
	};
	const { LibreBorTrigger } = require('../../../dist/nodes/LibreBor/LibreBorTrigger.node.js') as {
		LibreBorTrigger: new () => INodeType;
	};
	return { LibreBor, LibreBorTrigger };
}

/** Hands a measurement's figures to the benchmark script that started this process. */
export function reportResult(result: unknown): void {
	const file = process.env.BENCH_RESULT_FILE;
	if (!file)
		throw new Error('BENCH_RESULT_FILE is not set: run the measurements through `npm run bench`');
	writeFileSync(file, JSON.stringify(result, null, 2));
}

export const quickRun = process.env.BENCH_QUICK === '1';
