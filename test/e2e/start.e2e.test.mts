import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { libreBorNodeType, libreBorTriggerNodeType } from './libreBorN8n.mts';
import { packedLibreBorPackage } from './libreBorPackage.mts';
import { findNode24 } from './n8nInstallation.mts';
import { N8nRestClient } from './n8nRestClient.mts';
import type { N8nServer } from './n8nServer.mts';
import { repoRoot } from './repoPaths.mts';

const READY = /n8n is ready: (http:\/\/\S+)/;

/** Runs the README's main job, `npm start`, as a user would, until it prints the editor's URL. */
async function startMainJob(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
	const node24 = findNode24();
	const { NODE_ENV: _testEnvironment, ...environment } = process.env;
	const child = spawn(node24, ['scripts/start.mts'], {
		cwd: repoRoot,
		env: { ...environment, PATH: `${path.dirname(node24)}${path.delimiter}${process.env.PATH ?? ''}`, LIBREBOR_SKIP_BUILD: '1' },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const url = await new Promise<string>((resolve, reject) => {
		const timer = setInterval(() => {
			const ready = READY.exec(output);
			if (ready) {
				clearInterval(timer);
				resolve(ready[1]);
			}
		}, 200);
		child.once('exit', (code) => {
			clearInterval(timer);
			reject(new Error(`npm start exited with ${code} before n8n was ready:\n${output}`));
		});
	});
	return { child, url, output: () => output };
}

describe('npm start', () => {
	let job: Awaited<ReturnType<typeof startMainJob>> | undefined;
	afterAll(() => {
		if (job?.child.exitCode === null) job.child.kill('SIGKILL');
	});

	it('brings up the editor with the nodes, the credential and the examples, and Ctrl-C stops it', async () => {
		await packedLibreBorPackage();
		job = await startMainJob();
		const client = await N8nRestClient.signIn({ baseUrl: job.url } as N8nServer);

		const nodeNames = (await client.nodeTypes()).map((type) => type.name);
		expect(nodeNames).toEqual(expect.arrayContaining([libreBorNodeType, libreBorTriggerNodeType]));
		const credentials = await client.request<Array<{ name: string; type: string }>>('GET', '/rest/credentials');
		expect(credentials).toEqual([expect.objectContaining({ name: 'LibreBOR API', type: 'libreBorApi' })]);
		const workflows = await client.request<Array<{ name: string }>>('GET', '/rest/workflows');
		expect(workflows.map((workflow) => workflow.name).sort()).toEqual([
			'LibreBOR: follow the companies of a spreadsheet',
			'LibreBOR: new BORME alert to a message',
			'LibreBOR: order annual accounts and save the PDF',
		]);
		expect(job.output()).toMatch(/Credential: +"LibreBOR API" -> simulator https:\/\/localhost:\d+\/v2/);

		job.child.kill('SIGINT');
		const [code] = await once(job.child, 'exit');
		expect(code).toBe(0);
		await expect(fetch(`${job.url}/healthz`)).rejects.toThrow();
	});
});
