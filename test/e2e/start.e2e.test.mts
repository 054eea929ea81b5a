import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';

import { findFreePort } from '../../tools/n8n/freePort.mts';
import { libreBorNodeType, libreBorTriggerNodeType } from '../../tools/n8n/libreBorN8n.mts';
import { packedLibreBorPackage } from './libreBorPackage.mts';
import { editorUrl, pressCtrlC, startMainJob, type MainJob } from '../../tools/n8n/mainJob.mts';
import { N8nRestClient } from '../../tools/n8n/n8nRestClient.mts';
import type { N8nServer } from '../../tools/n8n/n8nServer.mts';
import { packageName } from '../../tools/packageName.mts';
import { repoRoot } from '../../tools/repoPaths.mts';

/** The names of the example workflows, which npm start imports on its first run. */
const EXAMPLES = readdirSync(path.join(repoRoot, 'examples'))
	.filter((file) => file.endsWith('.json'))
	.map(
		(file) =>
			(JSON.parse(readFileSync(path.join(repoRoot, 'examples', file), 'utf8')) as { name: string })
				.name,
	);

async function stopAndExpectGone(job: MainJob, url: string): Promise<void> {
	expect(await pressCtrlC(job)).toBe(0);
	await expect(fetch(`${url}/healthz`)).rejects.toThrow();
}

describe('npm start', () => {
	const jobs: MainJob[] = [];
	const dataFolder = mkdtempSync(path.join(os.tmpdir(), 'librebor-start-data-'));
	const tempFolder = mkdtempSync(path.join(os.tmpdir(), 'librebor-start-tmp-'));
	afterAll(async () => {
		// Ctrl-C lets npm start stop its n8n (which runs in a process group of its own).
		for (const job of jobs) if (job.child.exitCode === null) job.child.kill('SIGINT');
		await Promise.race([Promise.all(jobs.map(async (job) => await job.exited)), delay(30_000)]);
		for (const job of jobs) if (job.child.exitCode === null) job.child.kill('SIGKILL');
		rmSync(dataFolder, { recursive: true, force: true, maxRetries: 3 });
		rmSync(tempFolder, { recursive: true, force: true, maxRetries: 3 });
	}, 60_000);

	it('brings up the editor on the chosen port with the nodes, listed as a community package, and keeps the work across runs', async () => {
		await packedLibreBorPackage();
		const port = await findFreePort();

		const first = startMainJob({ port, dataFolder, tempFolder });
		jobs.push(first);
		const url = await editorUrl(first);
		expect(url).toBe(`http://127.0.0.1:${port}`);
		const client = await N8nRestClient.signIn({ baseUrl: url } as N8nServer);
		const nodeNames = (await client.nodeTypes()).map((type) => type.name);
		expect(nodeNames).toEqual(expect.arrayContaining([libreBorNodeType, libreBorTriggerNodeType]));
		const credentials = await client.request<Array<{ name: string; type: string }>>(
			'GET',
			'/rest/credentials',
		);
		expect(credentials).toEqual([
			expect.objectContaining({ name: 'LibreBOR API', type: 'libreBorApi' }),
		]);
		const packages = await client.request<
			Array<{ packageName: string; failedLoading: boolean; installedNodes: unknown[] }>
		>('GET', '/rest/community-packages');
		expect(packages).toEqual([
			expect.objectContaining({
				packageName,
				failedLoading: false,
				installedNodes: expect.any(Array),
			}),
		]);
		expect(first.output()).toMatch(
			/Credential: +"LibreBOR API" -> simulator https:\/\/localhost:\d+\/v2/,
		);
		await client.request('POST', '/rest/workflows', {
			name: 'Built by the user',
			nodes: [],
			connections: {},
			settings: {},
		});
		await stopAndExpectGone(first, url);
		expect(readdirSync(tempFolder)).toEqual([]);

		const second = startMainJob({ port, dataFolder, tempFolder });
		jobs.push(second);
		expect(await editorUrl(second)).toBe(url);
		const again = await N8nRestClient.signIn({ baseUrl: url } as N8nServer);
		const workflows = await again.request<Array<{ name: string }>>('GET', '/rest/workflows');
		expect(workflows.map((workflow) => workflow.name).sort()).toEqual(
			[...EXAMPLES, 'Built by the user'].sort(),
		);
		const [credential] = await again.request<Array<{ id: string }>>('GET', '/rest/credentials');
		// The simulator listens on a new port in every run; the credential follows it.
		const stored = await again.request<{ data: { baseUrl: string } }>(
			'GET',
			`/rest/credentials/${credential.id}?includeData=true`,
		);
		expect(second.output()).toContain(`-> simulator ${stored.data.baseUrl}`);
		await stopAndExpectGone(second, url);
		expect(readdirSync(tempFolder)).toEqual([]);
	}, 300_000);

	it('refuses a busy port with what to do, before building or installing anything', async () => {
		const port = await findFreePort();
		const holder = net.createServer().listen(port, '127.0.0.1');
		await once(holder, 'listening');
		try {
			const job = startMainJob({ port, dataFolder: path.join(dataFolder, 'unused'), tempFolder });
			jobs.push(job);
			expect(await job.exited).toBe(1);
			expect(job.output()).toContain(`Port ${port} is already in use`);
			expect(job.output()).toContain(`npm start -- --port ${port + 10}`);
		} finally {
			holder.close();
		}
	});
});
