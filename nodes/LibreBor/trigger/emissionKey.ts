import { createHash } from 'crypto';

/**
 * The deduplication key of one emission: the same for the same trigger (workflow and node) and
 * the same alerts, so that emitting a batch again after a restart cannot start a second execution.
 * Hashed, so that n8n's database holds no alert id or account detail, and short, to fit its column.
 */
export function emissionKey(workflowId: string, nodeId: string, alertKeys: string[]): string {
	const batch = JSON.stringify([workflowId, nodeId, [...alertKeys].sort()]);
	return `librebor-trigger:${createHash('sha256').update(batch).digest('hex')}`;
}
