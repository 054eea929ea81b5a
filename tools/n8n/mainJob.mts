import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

import { findNode24 } from './n8nInstallation.mts';
import { repoRoot } from '../repoPaths.mts';

/** What `npm start` prints once the editor is ready. */
const READY = /n8n is ready: (http:\/\/\S+)/;

export interface MainJob {
	child: ChildProcess;
	output: () => string;
	exited: Promise<number | null>;
}

/** Runs the README's main job, `npm start`, as a user would, with its own temp folder and data folder. */
export function startMainJob(settings: {
	port: number;
	dataFolder: string;
	tempFolder: string;
}): MainJob {
	const node24 = findNode24();
	const { NODE_ENV: _testEnvironment, ...environment } = process.env;
	const child = spawn(node24, ['scripts/start.mts'], {
		cwd: repoRoot,
		env: {
			...environment,
			PATH: `${path.dirname(node24)}${path.delimiter}${process.env.PATH ?? ''}`,
			LIBREBOR_SKIP_BUILD: '1',
			N8N_PORT: String(settings.port),
			LIBREBOR_DEV_FOLDER: settings.dataFolder,
			TMPDIR: settings.tempFolder,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = once(child, 'exit').then(([code]) => code as number | null);
	return { child, output: () => output, exited };
}

export async function editorUrl(job: MainJob): Promise<string> {
	return await new Promise<string>((resolve, reject) => {
		const timer = setInterval(() => {
			const ready = READY.exec(job.output());
			if (ready) {
				clearInterval(timer);
				resolve(ready[1]);
			}
		}, 200);
		void job.exited.then((code) => {
			clearInterval(timer);
			reject(new Error(`npm start exited with ${code} before n8n was ready:\n${job.output()}`));
		});
	});
}

/** Stops it as a user does, with Ctrl-C, and returns its exit code. */
export async function pressCtrlC(job: MainJob): Promise<number | null> {
	job.child.kill('SIGINT');
	return await job.exited;
}
