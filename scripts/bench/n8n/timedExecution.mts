import { readFileSync } from 'node:fs';

import { parseRunOutput, type ExecutionRun } from '../../../tools/n8n/executionRun.mts';
import type { N8nUserFolder } from '../../../tools/n8n/n8nUserFolder.mts';
import { signalProcessGroup, spawnN8n } from '../../../tools/n8n/n8nProcess.mts';

export interface TimedExecution {
	/** From starting `n8n execute` to its exit. */
	wallMs: number;
	run: ExecutionRun;
	/** The n8n process's peak resident memory (VmHWM), the whole run long. */
	peakRssBytes: number;
}

/** VmHWM of a live process, from /proc (Linux): the most memory it has held resident so far. */
function peakResidentBytes(pid: number): number | undefined {
	try {
		const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
		return kib === undefined ? undefined : Number(kib) * 1024;
	} catch {
		return undefined;
	}
}

/**
 * Runs a workflow once with `n8n execute --id --rawOutput`, timing the whole command and sampling
 * the peak memory of the n8n process (the one that runs the nodes; Code nodes go to a task runner).
 */
export async function executeTimed(
	folder: N8nUserFolder,
	workflowId: string,
	timeoutMs = 600_000,
): Promise<TimedExecution> {
	const started = performance.now();
	const n8n = await spawnN8n(folder, ['execute', `--id=${workflowId}`, '--rawOutput'], {
		label: `bench-${workflowId}`,
	});
	let peakRssBytes = 0;
	const sample = () => {
		peakRssBytes = Math.max(peakRssBytes, peakResidentBytes(n8n.child.pid ?? -1) ?? 0);
	};
	const sampler = setInterval(sample, 25);
	const timer = setTimeout(() => signalProcessGroup(n8n.child, 'SIGKILL'), timeoutMs);
	try {
		const { code } = await n8n.exited;
		const wallMs = performance.now() - started;
		const run = parseRunOutput(n8n.output.stdout);
		if (code !== 0 || !run || run.data.resultData.error) {
			throw new Error(
				`n8n execute --id=${workflowId} failed (exit code ${code}):\n${n8n.output.all.slice(-4000)}`,
			);
		}
		return { wallMs, run, peakRssBytes };
	} finally {
		clearInterval(sampler);
		clearTimeout(timer);
	}
}
