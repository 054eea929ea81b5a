import { setTimeout as delay } from 'node:timers/promises';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** A tool's answer as an MCP client gets it: its text, and whether the server flagged it an error. */
export interface McpToolAnswer {
	text: string;
	isError: boolean;
}

export interface McpSession {
	listTools(): Promise<
		Array<{
			name: string;
			description?: string;
			inputSchema: { properties?: Record<string, unknown> };
		}>
	>;
	callTool(name: string, args: Record<string, unknown>): Promise<McpToolAnswer>;
	close(): Promise<void>;
}

/**
 * Connects the official MCP TypeScript client over Streamable HTTP, with a bearer token, as an AI
 * assistant connects to n8n's MCP Server Trigger.
 */
export async function connectMcpClient(url: string, bearerToken: string): Promise<McpSession> {
	const client = new Client({ name: 'n8n-nodes-librebor-e2e', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(url), {
		requestInit: { headers: { authorization: `Bearer ${bearerToken}` } },
	});
	await client.connect(transport);
	return {
		listTools: async () => (await client.listTools()).tools,
		callTool: async (name, args) => {
			const result = await client.callTool({ name, arguments: args });
			const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
			return {
				text: content.map((part) => part.text ?? '').join('\n'),
				isError: result.isError === true,
			};
		},
		close: async () => await client.close(),
	};
}

/**
 * n8n registers a published workflow's webhooks shortly after the activation call answers, and
 * answers 404 until then. A POST without the token is refused (401) once registered, running nothing.
 */
export async function mcpEndpointRegistered(url: string, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while ((await fetch(url, { method: 'POST' })).status === 404) {
		if (Date.now() > deadline)
			throw new Error(`n8n did not register the MCP endpoint ${url} within ${timeoutMs} ms`);
		await delay(200);
	}
}
