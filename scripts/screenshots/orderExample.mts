// Makes docs/editor.png (the "order annual accounts" example on the canvas) and docs/node-panel.png
// (its Order node after a run: the Company picked from the list, the PDF in the output), in the n8n
// that `npm start` brings up, driven by Debian's chromium (installed when missing).
//   npm run screenshots
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { openEditorSession, runOrderExample } from '../../tools/n8n/browser/editorSession.mts';
import { repoRoot } from '../../tools/repoPaths.mts';

const docs = path.join(repoRoot, 'docs');
execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
const editor = await openEditorSession('librebor-screenshots', console.log);
const { page } = editor;
try {
	await runOrderExample(editor, 180_000, async () => {
		await page.screenshot({ path: path.join(docs, 'editor.png') });
	});
	await page
		.getByText('Workflow executed successfully')
		.first()
		.waitFor({ state: 'hidden', timeout: 20_000 })
		.catch(() => undefined);
	await page.screenshot({ path: path.join(docs, 'node-panel.png') });
	console.log(`Wrote docs/editor.png and docs/node-panel.png`);
} finally {
	await editor.close();
}
