import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installCommunityPackage, packPackage } from './communityPackage.ts';
import { nodeOutputJson } from './executionRun.ts';
import { executeWorkflow, importWorkflows, publishWorkflow } from './n8nCli.ts';
import { linesMentioning, problemsMentioning } from './n8nLog.ts';
import { N8nRestClient } from './n8nRestClient.ts';
import { startN8n, type N8nServer } from './n8nServer.ts';
import { createN8nUserFolder, type N8nUserFolder } from './n8nUserFolder.ts';
import {
	probeManualWorkflow,
	probeNodeType,
	probePackageName,
	probePollingWorkflow,
	probeTriggerNodeType,
	writeProbePackage,
} from './probePackage.ts';

// Installing n8n the first time takes minutes; later runs reuse it.
const setupTimeoutMs = 600_000;
const testTimeoutMs = 180_000;

const manualWorkflowId = 'e2eProbeManual01';
const pollingWorkflowId = 'e2eProbePolling1';

describe('a real n8n 2.41 with a community package installed', () => {
	let scratch: string;
	let folder: N8nUserFolder;
	let server: N8nServer | undefined;

	beforeAll(async () => {
		scratch = await mkdtemp(path.join(os.tmpdir(), 'n8n-e2e-probe-'));
		folder = await createN8nUserFolder();
		const packageFolder = await writeProbePackage(path.join(scratch, 'package'));
		const tarball = await packPackage(packageFolder, scratch);
		await installCommunityPackage(folder, tarball);
		await importWorkflows(folder, [
			probeManualWorkflow(manualWorkflowId, 'hello from e2e'),
			probePollingWorkflow(pollingWorkflowId),
		]);
	}, setupTimeoutMs);

	afterAll(async () => {
		await server?.stop();
		await folder?.remove();
		if (scratch) await rm(scratch, { recursive: true, force: true });
	}, testTimeoutMs);

	it('runs the package node with `n8n execute`', async () => {
		const execution = await executeWorkflow(folder, manualWorkflowId);

		expect(execution.succeeded, execution.result.stdout).toBe(true);
		expect(nodeOutputJson(execution.run!, 'E2E Probe')).toEqual([{ greeting: 'hello from e2e', index: 0 }]);
		expect(problemsMentioning(execution.result.log, probePackageName)).toEqual([]);
	}, testTimeoutMs);

	it('lists the package nodes in the editor and logs no problem about them', async () => {
		await publishWorkflow(folder, pollingWorkflowId);
		server = await startN8n(folder);
		const rest = await N8nRestClient.signIn(server);

		const types = (await rest.nodeTypes()).map((type) => type.name);

		expect(types).toContain(probeNodeType);
		expect(types).toContain(probeTriggerNodeType);
		expect(problemsMentioning(server.logEntries(), probePackageName)).toEqual([]);
		expect(linesMentioning(server.output.all, /error|warn|fail/i).filter((line) => line.includes('probe'))).toEqual(
			[],
		);
	}, testTimeoutMs);

	it('polls a published trigger as soon as n8n starts', async () => {
		const rest = await N8nRestClient.signIn(server!);

		const [execution] = await rest.waitForExecutions(pollingWorkflowId, 1);

		expect(execution.mode).toBe('trigger');
		expect(execution.status).toBe('success');
		expect(nodeOutputJson(execution.run, 'E2E Probe Trigger')).toEqual([{ poll: 1, mode: 'trigger' }]);
	}, testTimeoutMs);

	it('runs a trigger manually, as "Fetch Test Event" does, without saving its static data', async () => {
		const rest = await N8nRestClient.signIn(server!);
		const trigger = 'E2E Probe Trigger';

		const executionId = await rest.runManually(pollingWorkflowId, {
			triggerToStartFrom: { name: trigger },
			destinationNode: { nodeName: trigger, mode: 'inclusive' },
		});
		const execution = await rest.waitForExecution(executionId);
		const workflow = await rest.request<{ staticData: unknown }>('GET', `/rest/workflows/${pollingWorkflowId}`);

		expect(execution.mode).toBe('manual');
		expect(nodeOutputJson(execution.run, trigger)).toEqual([{ poll: 2, mode: 'manual' }]);
		expect(workflow.staticData).toEqual({ [`node:${trigger}`]: { polls: 1 } });
	}, testTimeoutMs);
});
