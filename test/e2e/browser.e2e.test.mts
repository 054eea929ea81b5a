import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
	openEditorSession,
	runOrderExample,
	type EditorSession,
} from '../../tools/n8n/browser/editorSession.mts';
import { packedLibreBorPackage } from './libreBorPackage.mts';

const setupTimeoutMs = 600_000;
const testTimeoutMs = 180_000;

describe('the order example in a real browser, on the n8n that `npm start` brings up', () => {
	let editor: EditorSession | undefined;

	beforeAll(async () => {
		await packedLibreBorPackage(); // builds dist/, which npm start then uses as it is
		editor = await openEditorSession('librebor-browser');
	}, setupTimeoutMs);

	afterAll(async () => await editor?.close(), testTimeoutMs);

	it(
		'signs in, picks a company from the Company list, runs the workflow and shows the PDF',
		async () => {
			const { page, dataFolder } = editor!;
			try {
				const file = await runOrderExample(editor!, testTimeoutMs);
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
