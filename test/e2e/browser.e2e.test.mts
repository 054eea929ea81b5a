import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
import { packedLibreBorPackage } from './libreBorPackage.mts';
import { editorUrl, pressCtrlC, startMainJob, type MainJob } from '../../tools/n8n/mainJob.mts';

const setupTimeoutMs = 600_000;
const testTimeoutMs = 180_000;

describe('the order example in a real browser, on the n8n that `npm start` brings up', () => {
	const dataFolder = mkdtempSync(path.join(os.tmpdir(), 'librebor-browser-data-'));
	const tempFolder = mkdtempSync(path.join(os.tmpdir(), 'librebor-browser-tmp-'));
	let job: MainJob | undefined;
	let url: string;
	let browser: Browser | undefined;
	let page: Page;

	beforeAll(async () => {
		const executablePath = ensureChromium();
		await packedLibreBorPackage(); // builds dist/, which npm start then uses as it is
		job = startMainJob({ port: await findFreePort(), dataFolder, tempFolder });
		url = await editorUrl(job);
		browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
		page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
	}, setupTimeoutMs);

	afterAll(async () => {
		await browser?.close();
		if (job && job.child.exitCode === null) await Promise.race([pressCtrlC(job), delay(30_000)]);
		if (job?.child.exitCode === null) job.child.kill('SIGKILL');
		rmSync(dataFolder, { recursive: true, force: true, maxRetries: 3 });
		rmSync(tempFolder, { recursive: true, force: true, maxRetries: 3 });
	}, testTimeoutMs);

	it(
		'signs in, picks a company from the Company list, runs the workflow and shows the PDF',
		async () => {
			try {
				await signIn(page, url);
				await openWorkflow(page, url, 'LibreBOR: order annual accounts and save the PDF');
				await openNode(page, 'Order Annual Accounts');
				// The example comes with BRISAS DEL LLOBREGAT SL; the list offers the other watched companies.
				await pickFromList(page, 'TALLER COOPERATIVO DEL EBRO SC (J99216582)');
				await closeNode(page);
				await executeWorkflow(page, testTimeoutMs);
				await openNode(page, 'Order Annual Accounts');

				const file = await binaryOutput(page);
				const fileName = /cuentas-anuales-J99216582-\d{4}\.pdf/.exec(file)?.[0];
				expect(fileName, file).toBeDefined();
				expect(file).toContain('application/pdf');
				// And the workflow's last node saved that PDF where the example writes its files.
				const saved = readFileSync(path.join(dataFolder, 'files', fileName!));
				expect(saved.subarray(0, 5).toString('latin1')).toBe('%PDF-');
			} catch (error) {
				const screenshot = path.join(os.tmpdir(), 'librebor-browser-failure.png');
				await page.screenshot({ path: screenshot }).catch(() => undefined);
				throw new Error(`${(error as Error).message}\n(the page at the failure: ${screenshot})`, {
					cause: error,
				});
			}
		},
		testTimeoutMs,
	);
});
