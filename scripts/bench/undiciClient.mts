import { Agent, request } from 'undici';

export interface PlainClientOptions {
	baseUrl: string;
	credentials: { username: string; password: string };
	/** Keep connections open between requests (what any HTTP client does by default), or open one per request. */
	reuseConnections: boolean;
}

/**
 * The same LibreBOR requests as the node sends (Basic credentials, form bodies, JSON answers),
 * made with a plain undici client and nothing else: the baseline of the node's overhead.
 */
export class PlainLibreBorClient {
	private readonly options: PlainClientOptions;
	private readonly dispatcher = new Agent({ keepAliveTimeout: 30_000 });
	private readonly authorization: string;

	constructor(options: PlainClientOptions) {
		this.options = options;
		const { username, password } = options.credentials;
		this.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
	}

	async send(
		method: 'GET' | 'POST',
		path: string,
		form?: Record<string, string>,
	): Promise<unknown> {
		const headers: Record<string, string> = {
			authorization: this.authorization,
			accept: 'application/json',
		};
		if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
		const response = await request(`${this.options.baseUrl}${path}`, {
			method,
			headers,
			body: form ? new URLSearchParams(form).toString() : undefined,
			dispatcher: this.dispatcher,
			reset: !this.options.reuseConnections,
		});
		const text = await response.body.text();
		if (response.statusCode !== 200)
			throw new Error(`${method} ${path} answered ${response.statusCode}: ${text}`);
		return JSON.parse(text);
	}

	async close(): Promise<void> {
		await this.dispatcher.close();
	}
}
