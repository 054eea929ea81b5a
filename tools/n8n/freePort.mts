import net from 'node:net';

/**
 * Listening ports are picked below Linux's ephemeral range (32768 and up), which the kernel hands
 * out for outgoing connections too: a port the kernel gave a listener for a moment could be taken
 * by one of the tests' many connections before n8n listens on it (seen once: "n8n Task Broker's
 * port is already in use").
 */
const LISTEN_PORTS = { from: 20_000, to: 32_000 } as const;

/** A TCP port on 127.0.0.1 that nothing listens on right now, outside the range outgoing connections take. */
export async function findFreePort(): Promise<number> {
	for (;;) {
		const port =
			LISTEN_PORTS.from + Math.floor(Math.random() * (LISTEN_PORTS.to - LISTEN_PORTS.from));
		if (await isPortFree(port)) return port;
	}
}

/** Whether a TCP port on 127.0.0.1 (where the local n8n listens) can be listened on right now. */
export async function isPortFree(port: number): Promise<boolean> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.once('error', (error: NodeJS.ErrnoException) =>
			error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(false) : reject(error),
		);
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}
