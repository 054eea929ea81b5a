import { setTimeout as delay } from 'node:timers/promises';

import type { WorkflowNode } from './workflowBuilder.mts';

/** A Webhook trigger taking POST calls on `path`, answering as soon as a call is received. */
export const webhook = (
	name: string,
	path: string,
	webhookId: string,
): WorkflowNode & { webhookId: string } => ({
	name,
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	webhookId,
	parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
});

/** POSTs `body` as JSON to the production webhook on `path` of the n8n at `baseUrl`. */
export async function callWebhook(baseUrl: string, path: string, body: unknown): Promise<Response> {
	return await fetch(`${baseUrl}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

/**
 * Waits until n8n takes POST calls on a published workflow's webhook: in queue mode, main registers
 * it shortly after the activation call answers. Until then n8n answers 404; a GET shows when POST is
 * registered without running anything (its answer names the method to use).
 */
export async function webhookRegistered(
	baseUrl: string,
	path: string,
	timeoutMs = 30_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const answer = await (await fetch(`${baseUrl}/webhook/${path}`)).text();
		if (/POST/.test(answer)) return;
		if (Date.now() > deadline)
			throw new Error(`n8n did not register the webhook ${path} within ${timeoutMs} ms: ${answer}`);
		await delay(200);
	}
}
