import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { chromium, type Page } from 'playwright-core';

import { ensureChromium } from '../chromium.mts';
import { findFreePort } from '../freePort.mts';
import { editorUrl, pressCtrlC, startMainJob, type MainJob } from '../mainJob.mts';
import {
	binaryOutput,
	closeNode,
	executeWorkflow,
	openNode,
	openWorkflow,
	pickFromList,
	signIn,
} from './editorPage.mts';

export interface EditorSession {
	url: string;
	page: Page;
	/** Where the example workflows write their files (under `files/`). */
	dataFolder: string;
	close: () => Promise<void>;
}

/** The n8n that `npm start` brings up, with its own folders, and a chromium page on its editor. */
export async function openEditorSession(
	folderPrefix: string,
	log?: (message: string) => void,
): Promise<EditorSession> {
	const executablePath = ensureChromium(log);
	const dataFolder = mkdtempSync(path.join(os.tmpdir(), `${folderPrefix}-data-`));
	const tempFolder = mkdtempSync(path.join(os.tmpdir(), `${folderPrefix}-tmp-`));
	let job: MainJob | undefined;
	let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
	const close = async () => {
		await browser?.close();
		if (job && job.child.exitCode === null) await Promise.race([pressCtrlC(job), delay(30_000)]);
		if (job?.child.exitCode === null) job.child.kill('SIGKILL');
		rmSync(dataFolder, { recursive: true, force: true, maxRetries: 3 });
		rmSync(tempFolder, { recursive: true, force: true, maxRetries: 3 });
	};
	try {
		job = startMainJob({ port: await findFreePort(), dataFolder, tempFolder });
		const url = await editorUrl(job);
		browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
		const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
		return { url, page, dataFolder, close };
	} catch (error) {
		await close();
		throw error;
	}
}

const orderExample = 'LibreBOR: order annual accounts and save the PDF';
const orderNode = 'Order Annual Accounts';

/**
 * Signs in, picks another company in the order example's Order node, runs the workflow and opens the
 * node again on its binary output, whose text it returns.
 */
export async function runOrderExample(
	{ page, url }: EditorSession,
	timeoutMs: number,
	onCanvas: () => Promise<void> = async () => {},
): Promise<string> {
	await signIn(page, url);
	await openWorkflow(page, url, orderExample);
	await onCanvas();
	await openNode(page, orderNode);
	// The example comes with BRISAS DEL LLOBREGAT SL; the list offers the other watched companies.
	await pickFromList(page, 'TALLER COOPERATIVO DEL EBRO SC (J99216582)');
	await closeNode(page);
	await executeWorkflow(page, timeoutMs);
	await openNode(page, orderNode);
	return await binaryOutput(page);
}
