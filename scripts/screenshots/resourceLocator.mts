// Makes docs/resource-locator.png: the Mark as Read operation's Alert picker open on the unread
// alerts, in a real n8n editor with the package installed, driven by Debian's chromium.
//   npm run screenshots   (Debian's chromium, installed when missing)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium } from 'playwright-core';

import { ensureChromium } from '../../tools/n8n/chromium.mts';
import { installCommunityPackage, packPackage } from '../../tools/n8n/communityPackage.mts';
import { signIn } from '../../tools/n8n/browser/editorPage.mts';
import { libreBor, libreBorCredential } from '../../tools/n8n/libreBorN8n.mts';
import { importCredentials, importWorkflows } from '../../tools/n8n/n8nCli.mts';
import { N8nRestClient } from '../../tools/n8n/n8nRestClient.mts';
import { startN8n } from '../../tools/n8n/n8nServer.mts';
import { createN8nUserFolder } from '../../tools/n8n/n8nUserFolder.mts';
import { manualTrigger, workflow } from '../../tools/n8n/workflowBuilder.mts';
import { repoRoot } from '../../tools/repoPaths.mts';
import { startSimulator } from '../../tools/simulator/index.mts';

const WORKFLOW_ID = 'screenshotLocator1';
const output = path.join(repoRoot, 'docs', 'resource-locator.png');

execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
const packFolder = mkdtempSync(path.join(os.tmpdir(), 'librebor-pack-'));
const tarball = await packPackage(repoRoot, packFolder);
const sim = await startSimulator({ seed: true });
for (const nif of ['A86212420', 'B64717838', 'J99216582'])
	if (!sim.state.watchlist.some((e) => e.nif === nif)) sim.state.follow(nif);
if (sim.state.unreadAlerts().length === 0) {
	sim.state.addAlert({
		nif: 'A86212420',
		label: 'Nombramientos',
		created_at: '2026-03-02T09:12:00.000Z',
	});
	sim.state.addAlert({
		nif: 'B64717838',
		labels: ['Revocaciones', 'Nombramientos'],
		created_at: '2026-03-03T10:40:00.000Z',
	});
	sim.state.addAlert({
		nif: 'J99216582',
		label: 'Ampliación de capital',
		created_at: '2026-03-04T08:05:00.000Z',
	});
}

const folder = await createN8nUserFolder();
await installCommunityPackage(folder, tarball);
await importCredentials(folder, [libreBorCredential(sim)]);
const trigger = 'When clicking ‘Execute workflow’';
const markAsRead = libreBor('Mark as Read', {
	resource: 'alert',
	operation: 'markAsRead',
	alertId: { __rl: true, mode: 'list', value: '' },
});
await importWorkflows(folder, [
	workflow(
		WORKFLOW_ID,
		'Mark a BORME alert as read',
		[manualTrigger(trigger), { ...markAsRead, typeVersion: 2 }],
		[[trigger, 'Mark as Read']],
	),
]);
const server = await startN8n(folder);
const browser = await chromium.launch({
	executablePath: ensureChromium(console.log),
	args: ['--no-sandbox'],
});
try {
	await N8nRestClient.signIn(server);
	const page = await browser.newPage({
		viewport: { width: 1280, height: 800 },
		deviceScaleFactor: 1,
	});
	await signIn(page, server.baseUrl);
	await page.goto(`${server.baseUrl}/workflow/${WORKFLOW_ID}`);
	// The node's label sits under its box; the canvas pane takes pointer events over the label itself.
	const label = await page.getByText('Mark as Read', { exact: true }).first().boundingBox();
	if (!label) throw new Error('The LibreBOR node is not on the canvas');
	await page.mouse.dblclick(label.x + label.width / 2, label.y - 50);
	await page.locator('[data-test-id="rlc-input"]').first().click();
	await page.getByText(/ · /).first().waitFor();
	await page.waitForTimeout(500);
	await page.screenshot({ path: output });
	console.log(`Wrote ${output}`);
} catch (error) {
	await (
		await browser.contexts()[0]?.pages()[0]
	)?.screenshot({ path: '/tmp/librebor-screenshot-failure.png' });
	throw error;
} finally {
	await browser.close();
	await server.stop();
	await folder.remove();
	rmSync(packFolder, { recursive: true, force: true });
	await sim.close();
}
