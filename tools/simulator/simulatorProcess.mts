import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'undici';

export interface SimulatorProcess {
	baseUrl: string;
	downloadOrigin: string;
	credentials: { username: string; password: string };
	/** Calls the simulator's control API (`/__sim/...`). */
	control(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown>;
	close(): Promise<void>;
}

function field(output: string, label: string): string {
	const match = new RegExp(`${label}:\\s+(\\S+)`).exec(output);
	if (!match) throw new Error(`The simulator did not print its ${label}`);
	return match[1];
}

/**
 * The seeded simulator in a process of its own, for measurements that must not count
 * the server's memory or CPU, and for a real n8n process to talk to.
 */
export async function startSimulatorProcess(
	env: Record<string, string> = {},
): Promise<SimulatorProcess> {
	const child: ChildProcess = spawn(process.execPath, ['tools/simulator/cli.mts'], {
		env: {
			...process.env,
			LIBREBOR_SIM_PORT: '0',
			LIBREBOR_SIM_DOWNLOAD_PORT: '0',
			LIBREBOR_SIM_PROCESSING_MS: '0',
			...env,
		},
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	let output = '';
	child.stdout!.setEncoding('utf8');
	await new Promise<void>((resolve, reject) => {
		child.once('exit', (code) =>
			reject(new Error(`The simulator exited with code ${code}: ${output}`)),
		);
		child.stdout!.on('data', (chunk: string) => {
			output += chunk;
			if (output.includes('Ctrl+C')) resolve();
		});
	});
	const baseUrl = field(output, 'Base URL');
	const controlOrigin = baseUrl.replace(/\/v2$/, '');
	return {
		baseUrl,
		downloadOrigin: field(output, 'Files'),
		credentials: { username: field(output, 'Username'), password: field(output, 'Password') },
		async control(method, path, body) {
			const response = await request(`${controlOrigin}/__sim/${path}`, {
				method,
				body: body === undefined ? undefined : JSON.stringify(body),
				headers: { 'content-type': 'application/json' },
			});
			const text = await response.body.text();
			if (response.statusCode >= 400)
				throw new Error(`Simulator control ${path}: ${response.statusCode} ${text}`);
			return text ? JSON.parse(text) : undefined;
		},
		async close() {
			child.removeAllListeners('exit');
			if (child.exitCode !== null) return;
			child.kill('SIGTERM');
			await once(child, 'exit');
		},
	};
}
