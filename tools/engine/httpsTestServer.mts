import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TLS_FOLDER = path.resolve(__dirname, '../simulator/tls');

export interface SeenRequest {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
}

export interface HttpsTestServer {
	/** `https://127.0.0.1:<port>`, trusted through NODE_EXTRA_CA_CERTS=tools/simulator/tls/ca.pem. */
	origin: string;
	requests: SeenRequest[];
	close: () => Promise<void>;
}

/** A local HTTPS server with the project's test certificate that records what it receives. */
export async function startHttpsTestServer(
	handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<HttpsTestServer> {
	const requests: SeenRequest[] = [];
	const server = createServer(
		{
			cert: readFileSync(path.join(TLS_FOLDER, 'server.pem')),
			key: readFileSync(path.join(TLS_FOLDER, 'server-key.pem')),
		},
		(request, response) => {
			requests.push({
				method: request.method ?? '',
				url: request.url ?? '',
				headers: request.headers,
			});
			handle(request, response);
		},
	);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `https://127.0.0.1:${port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
