import type { Page } from 'playwright-core';

import { testOwner } from '../n8nRestClient.mts';

// What a user does in n8n 2.41's editor, step by step, waiting for what each step shows (no fixed sleeps).

export async function signIn(page: Page, editorUrl: string): Promise<void> {
	await page.goto(`${editorUrl}/signin`);
	await page.getByLabel(/email/i).fill(testOwner.email);
	await page.getByLabel(/password/i).fill(testOwner.password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL((url) => !url.pathname.includes('signin'));
}

/** Opens a workflow from the Overview list by its name, as a user does. */
export async function openWorkflow(page: Page, editorUrl: string, name: string): Promise<void> {
	await page.goto(`${editorUrl}/home/workflows`);
	await page.getByText(name, { exact: true }).first().click();
	await page.waitForURL(/\/workflow\//);
	await page.locator('[data-test-id="execute-workflow-button"]').waitFor();
}

/** Opens a node's panel with a double click on its box on the canvas. */
export async function openNode(page: Page, nodeName: string): Promise<void> {
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`).dblclick();
	await page.locator('[data-test-id="ndv"]').waitFor();
}

export async function closeNode(page: Page): Promise<void> {
	await page.locator('[data-test-id="ndv-close-button"]').click();
	await page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden' });
}

/** Opens the first "From list" picker of the open panel and picks the entry that shows `entryText`. */
export async function pickFromList(page: Page, entryText: string | RegExp): Promise<void> {
	await page.locator('[data-test-id="ndv"] [data-test-id="rlc-input"]').first().click();
	await page.getByText(entryText).first().click();
}

/** Runs the whole workflow from the canvas and waits until n8n says it succeeded. */
export async function executeWorkflow(page: Page, timeoutMs: number): Promise<void> {
	await page.locator('[data-test-id="execute-workflow-button"]').click();
	await page.getByText('Workflow executed successfully').first().waitFor({ timeout: timeoutMs });
}

/** The open panel's output as binary data: the text of the first file's card (name, type, size). */
export async function binaryOutput(page: Page): Promise<string> {
	const binaryTab = page.locator('[data-test-id="ndv"] [data-test-id="radio-button-binary"]');
	await binaryTab.waitFor();
	await binaryTab.click();
	const card = page.locator('[data-test-id="ndv"] [data-test-id="ndv-binary-data_0"]');
	await card.waitFor();
	return await card.innerText();
}
