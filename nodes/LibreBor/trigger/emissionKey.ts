import { createHash } from 'crypto';

import type { PollingFunctions } from '../run/nodeRun';

/** One trigger (its workflow and node), for what this process keeps of it. */
export function triggerKey(context: PollingFunctions): string {
	return `${context.getWorkflow().id}#${context.getNode().id}`;
}

/**
 * The deduplication key of one emission: the same for the same trigger (workflow and node) and
 * the same alerts, so that emitting a batch again after a restart cannot start a second execution.
 * Hashed, so that n8n's database holds no alert id or account detail, and short, to fit its column.
 */
export function emissionKey(context: PollingFunctions, alertKeys: string[]): string {
	const batch = JSON.stringify([
		context.getWorkflow().id,
		context.getNode().id,
		[...alertKeys].sort(),
	]);
	return `librebor-trigger:${createHash('sha256').update(batch).digest('hex')}`;
}
