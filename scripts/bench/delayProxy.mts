// A TCP proxy that puts network distance between a client and the simulator: every chunk waits
// half the round trip in each direction, so TCP and TLS handshakes pay the distance too, as on a
// real network (a server-side delay only slows the answer, never the connection set-up).
import net from 'node:net';

export interface DelayProxy {
	/** The simulator's base URL, through the proxy (same host name, so TLS still verifies). */
	baseUrl: string;
	/** Applies to the chunks that arrive from now on. */
	roundTripMs: number;
	close(): Promise<void>;
}

/** Forwards `from` to `to`, each chunk half a round trip later, in order. */
function pipeDelayed(from: net.Socket, to: net.Socket, proxy: DelayProxy): void {
	const delay = () => proxy.roundTripMs / 2;
	from.on('data', (chunk) => {
		const delayMs = delay();
		if (delayMs === 0) to.write(chunk);
		else setTimeout(() => to.writable && to.write(chunk), delayMs);
	});
	from.on('end', () => setTimeout(() => to.end(), delay()));
	from.on('error', () => to.destroy());
	from.on('close', () => setTimeout(() => to.destroy(), delay()));
}

export async function startDelayProxy(
	targetBaseUrl: string,
	roundTripMs: number,
): Promise<DelayProxy> {
	const target = new URL(targetBaseUrl);
	const sockets = new Set<net.Socket>();
	const server = net.createServer((client) => {
		client.setNoDelay(true);
		const upstream = net.connect({ host: '127.0.0.1', port: Number(target.port) });
		upstream.setNoDelay(true);
		// The client's first bytes travel half a round trip before the server sees the connection.
		pipeDelayed(client, upstream, proxy);
		pipeDelayed(upstream, client, proxy);
		for (const socket of [client, upstream]) {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	const through = new URL(targetBaseUrl);
	through.port = String(port);
	const proxy: DelayProxy = {
		baseUrl: through.toString().replace(/\/$/, ''),
		roundTripMs,
		close: () =>
			new Promise<void>((resolve) => {
				// Connections kept alive by clients would hold the server open.
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
	return proxy;
}
