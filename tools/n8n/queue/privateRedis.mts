import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import net from 'node:net';

import { findFreePort } from '../freePort.mts';
import { stopWithThisProcess } from '../stopWithThisProcess.mts';

/** A Redis of its own on 127.0.0.1, keeping nothing on disk. */
export interface PrivateRedis {
	port: number;
	/** The n8n settings that point n8n's queue at this Redis. */
	n8nEnv: Record<string, string>;
	stop(): Promise<void>;
}

async function answersPing(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('error', () => resolve(false));
		socket.once('data', (data) => {
			socket.destroy();
			resolve(data.toString().startsWith('+PONG'));
		});
		socket.once('connect', () => socket.write('PING\r\n'));
	});
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
	const port = await findFreePort();
	const child = spawn(
		'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
		],
		{ stdio: 'ignore' },
	);
	stopWithThisProcess(child);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const deadline = Date.now() + 20_000;
	while (!(await answersPing(port))) {
		if (child.exitCode !== null || Date.now() > deadline) {
			child.kill('SIGKILL');
			throw new Error(`redis-server did not start on port ${port}`);
		}
		await delay(100);
	}
	return {
		port,
		n8nEnv: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
		stop: async () => {
			if (child.exitCode === null) child.kill('SIGTERM');
			await exited;
		},
	};
}
