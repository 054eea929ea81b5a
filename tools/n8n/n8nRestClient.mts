import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import type { INodeTypeDescription, ICredentialType } from 'n8n-workflow';

import type { ExecutionRun } from './executionRun.mts';
import type { N8nServer } from './n8nServer.mts';

const unfinishedStatuses = ['new', 'running', 'waiting'];

/** The owner account the helpers create on a fresh n8n. */
export const testOwner = {
	email: 'owner@example.com',
	firstName: 'Test',
	lastName: 'Owner',
	password: 'Test-owner-password-1',
};

/** A row of the executions list (`GET /rest/executions`). */
export interface ExecutionSummary {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished?: boolean;
	startedAt?: string | null;
	stoppedAt?: string | null;
	[key: string]: unknown;
}

/** A whole execution with its run data (`GET /rest/executions/:id`). */
export interface ExecutionDetails extends ExecutionSummary {
	run: ExecutionRun;
}

export interface ExecutionFilter {
	workflowId?: string;
	/** For instance `trigger` (production runs of a published workflow), `cli`, `manual`. */
	mode?: string;
	status?: string[];
}

/**
 * Calls n8n's internal REST API (the one its editor uses) as the owner, with a session cookie.
 * n8n 2.41 requires a `browser-id` header matching the one the session was opened with.
 */
export class N8nRestClient {
	private cookie = '';
	private readonly browserId = 'n8n-nodes-librebor-e2e';

	private readonly server: N8nServer;

	private constructor(server: N8nServer) {
		this.server = server;
	}

	/** Sets the owner account up on a fresh n8n (before that n8n answers 401 on most routes), or logs in. */
	static async signIn(server: N8nServer): Promise<N8nRestClient> {
		const client = new N8nRestClient(server);
		const settings = await client.request<{ userManagement?: { showSetupOnFirstLoad?: boolean } }>(
			'GET',
			'/rest/settings',
		);
		if (settings.userManagement?.showSetupOnFirstLoad) {
			await client.request('POST', '/rest/owner/setup', testOwner);
		} else {
			await client.request('POST', '/rest/login', {
				emailOrLdapLoginId: testOwner.email,
				password: testOwner.password,
			});
		}
		return client;
	}

	/** Calls a route and returns its JSON answer (unwrapping n8n's `{ data }` envelope). */
	async request<T>(method: string, route: string, body?: unknown): Promise<T> {
		const response = await this.send(method, route, body);
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
		const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
		return (isEnvelope(parsed) ? parsed.data : parsed) as T;
	}

	/** The node types the editor sees (`/types/nodes.json`). */
	async nodeTypes(): Promise<INodeTypeDescription[]> {
		return await this.request('GET', '/types/nodes.json');
	}

	/** The credential types the editor sees (`/types/credentials.json`). */
	async credentialTypes(): Promise<ICredentialType[]> {
		return await this.request('GET', '/types/credentials.json');
	}

	/** Executions, newest first (up to 100). */
	async listExecutions(filter: ExecutionFilter = {}): Promise<ExecutionSummary[]> {
		const query = new URLSearchParams({ filter: JSON.stringify(filter), limit: '100' });
		const page = await this.request<{ results: ExecutionSummary[] }>(
			'GET',
			`/rest/executions?${query}`,
		);
		return page.results;
	}

	/** One execution with its run data, decoded from n8n's storage format (flatted). */
	async getExecution(id: string): Promise<ExecutionDetails> {
		const { data, ...summary } = await this.request<ExecutionSummary & { data: string }>(
			'GET',
			`/rest/executions/${id}`,
		);
		const run = { ...summary, data: this.unflatten(data) } as ExecutionRun;
		return { ...summary, run } as ExecutionDetails;
	}

	/**
	 * Waits until a workflow has at least `count` finished executions (of one mode, if given, such as
	 * `trigger`; not counting those `except` names), and returns them (oldest first).
	 */
	async waitForExecutions(
		workflowId: string,
		count: number,
		{
			timeoutMs = 90_000,
			intervalMs = 500,
			mode,
			except,
		}: { timeoutMs?: number; intervalMs?: number; mode?: string; except?: Set<string> } = {},
	): Promise<ExecutionDetails[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const finished = (await this.listExecutions({ workflowId })).filter(
				(execution) =>
					!unfinishedStatuses.includes(execution.status) &&
					(mode === undefined || execution.mode === mode) &&
					!except?.has(execution.id),
			);
			if (finished.length >= count) {
				const details = await Promise.all(
					finished.map(async ({ id }) => await this.getExecution(id)),
				);
				return details.reverse();
			}
			if (Date.now() > deadline) {
				throw new Error(
					`Workflow ${workflowId} has ${finished.length} finished ${mode ? `${mode} ` : ''}executions, expected ${count} within ${timeoutMs} ms`,
				);
			}
			await delay(intervalMs);
		}
	}

	/**
	 * Runs a saved workflow manually, as the editor does: `{ triggerToStartFrom: { name } }` runs it from a
	 * trigger, and `destinationNode: { nodeName, mode: 'inclusive' }` stops after that node (the editor's
	 * "Fetch Test Event" on a trigger sends both with the trigger's name). Returns the execution's id;
	 * wait for it with waitForExecution.
	 */
	async runManually(
		workflowId: string,
		body: {
			triggerToStartFrom?: { name: string };
			destinationNode?: { nodeName: string; mode: 'inclusive' | 'exclusive' };
		},
	): Promise<string> {
		// n8n 1 runs the workflow the request carries, as its editor sends it; n8n 2 reads it from its database.
		const workflowData = await this.request<object>('GET', `/rest/workflows/${workflowId}`);
		const answer = await this.request<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/rest/workflows/${workflowId}/run`,
			{ workflowData, ...body },
		);
		if (!answer?.executionId)
			throw new Error(`The manual run started no execution: ${JSON.stringify(answer)}`);
		return answer.executionId;
	}

	/** Waits until an execution has finished, and returns it. */
	async waitForExecution(
		executionId: string,
		{ timeoutMs = 90_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {},
	): Promise<ExecutionDetails> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.getExecution(executionId).catch(() => undefined);
			if (execution && !unfinishedStatuses.includes(execution.status)) return execution;
			if (Date.now() > deadline) {
				throw new Error(`Execution ${executionId} did not finish within ${timeoutMs} ms`);
			}
			await delay(intervalMs);
		}
	}

	/** Publishes (activates) a workflow's current version while n8n runs, as the editor's Publish button does. */
	async activateWorkflow(workflowId: string): Promise<void> {
		const { versionId } = await this.request<{ versionId: string }>(
			'GET',
			`/rest/workflows/${workflowId}`,
		);
		await this.request('POST', `/rest/workflows/${workflowId}/activate`, { versionId });
	}

	/** Unpublishes (deactivates) a workflow while n8n runs. */
	async deactivateWorkflow(workflowId: string): Promise<void> {
		await this.request('POST', `/rest/workflows/${workflowId}/deactivate`, {});
	}

	private async send(method: string, route: string, body?: unknown): Promise<Response> {
		const response = await fetch(`${this.server.baseUrl}${route}`, {
			method,
			headers: {
				'browser-id': this.browserId,
				...(this.cookie ? { cookie: this.cookie } : {}),
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const authCookie = response.headers
			.getSetCookie()
			.map((header) => header.split(';')[0])
			.find((pair) => pair.startsWith('n8n-auth='));
		if (authCookie) this.cookie = authCookie;
		return response;
	}

	private unflatten(data: string): ExecutionRun['data'] {
		const n8nRequire = createRequire(
			path.join(this.server.folder.installation.home, 'node_modules', 'n8n', 'package.json'),
		);
		const flatted = n8nRequire('flatted') as { parse(text: string): unknown };
		return flatted.parse(data) as ExecutionRun['data'];
	}
}

function isEnvelope(value: unknown): value is { data: unknown } {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && 'data' in value;
}
