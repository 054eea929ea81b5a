import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { INodeParameters, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { TriggerNodeSession, type AlertPollSession } from '../../../tools/engine/index.mts';
import type { BenchSimulator } from '../simulatorControl.mts';

const require = createRequire(import.meta.url);

/** The built nodes, loaded by Node's own `require` from dist/ as n8n loads them (build first). */
export function builtNodes(): {
	LibreBor: new () => INodeType;
	LibreBorTrigger: new () => IVersionedNodeType;
} {
	const { LibreBor } = require('../../../dist/nodes/LibreBor/LibreBor.node.js') as {
		LibreBor: new () => INodeType;
	};
	const { LibreBorTrigger } = require('../../../dist/nodes/LibreBor/LibreBorTrigger.node.js') as {
		LibreBorTrigger: new () => IVersionedNodeType;
	};
	return { LibreBor, LibreBorTrigger };
}

/** The built LibreBOR Trigger in the version a new workflow gets, active and polled as n8n polls it. */
export function activeTrigger(sim: BenchSimulator, parameters: INodeParameters): AlertPollSession {
	return new TriggerNodeSession({
		nodeType: new (builtNodes().LibreBorTrigger)().getNodeType(),
		parameters,
		credentials: { libreBorApi: sim.libreBorCredential },
	});
}

/** Hands a measurement's figures to the benchmark script that started this process. */
export function reportResult(result: unknown): void {
	const file = process.env.BENCH_RESULT_FILE;
	if (!file)
		throw new Error('BENCH_RESULT_FILE is not set: run the measurements through `npm run bench`');
	writeFileSync(file, JSON.stringify(result, null, 2));
}

export const quickRun = process.env.BENCH_QUICK === '1';
