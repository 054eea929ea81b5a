import net from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function findFreePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
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
