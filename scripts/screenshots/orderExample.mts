// Makes docs/editor.png (the "order annual accounts" example on the canvas) and docs/node-panel.png
// (its Order node after a run: the Company picked from the list, the PDF in the output), in the n8n
// that `npm start` brings up, driven by Debian's chromium (installed when missing).
//   npm run screenshots
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium } from 'playwright-core';

import {
	binaryOutput,
	closeNode,
	executeWorkflow,
	openNode,
	openWorkflow,
	pickFromList,
	signIn,
} from '../../tools/n8n/browser/editorPage.mts';
import { ensureChromium } from '../../tools/n8n/chromium.mts';
import { findFreePort } from '../../tools/n8n/freePort.mts';
import { editorUrl, pressCtrlC, startMainJob } from '../../tools/n8n/mainJob.mts';
import { repoRoot } from '../../tools/repoPaths.mts';

const docs = path.join(repoRoot, 'docs');
const executablePath = ensureChromium(console.log);
execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
const dataFolder = mkdtempSync(path.join(os.tmpdir(), 'librebor-screenshots-data-'));
const tempFolder = mkdtempSync(path.join(os.tmpdir(), 'librebor-screenshots-tmp-'));
const job = startMainJob({ port: await findFreePort(), dataFolder, tempFolder });
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
	const url = await editorUrl(job);
	const page = await browser.newPage({
		viewport: { width: 1400, height: 800 },
		deviceScaleFactor: 1,
	});
	await signIn(page, url);
	await openWorkflow(page, url, 'LibreBOR: order annual accounts and save the PDF');
	await page.screenshot({ path: path.join(docs, 'editor.png') });
	await openNode(page, 'Order Annual Accounts');
	await pickFromList(page, 'TALLER COOPERATIVO DEL EBRO SC (J99216582)');
	await closeNode(page);
	await executeWorkflow(page, 180_000);
	await openNode(page, 'Order Annual Accounts');
	await binaryOutput(page);
	await page
		.getByText('Workflow executed successfully')
		.first()
		.waitFor({ state: 'hidden', timeout: 20_000 })
		.catch(() => undefined);
	await page.screenshot({ path: path.join(docs, 'node-panel.png') });
	console.log(`Wrote docs/editor.png and docs/node-panel.png`);
} finally {
	await browser.close();
	await pressCtrlC(job);
	rmSync(dataFolder, { recursive: true, force: true });
	rmSync(tempFolder, { recursive: true, force: true });
}
