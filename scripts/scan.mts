// `npm run scan`: the lint part of n8n's community package scanner (@n8n/scan-community-package),
// run as n8n runs it on a published version: on the source (package.json, nodes/, credentials/) and
// on the packed tarball (its .js files and package.json). The scanner's other part, the npm
// provenance check and the download of the GitHub source it attests, needs the version published
// from GitHub Actions (.github/workflows/publish.yml): `npx @n8n/scan-community-package <name>`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Analysis = { passed: boolean; message?: string; details?: string };
type Scanner = {
	analyzePackage(folder: string, patterns: string[]): Promise<Analysis>;
	SOURCE_FILE_PATTERNS: string[];
};

// A variable, not a literal: the scanner ships no types.
const scannerModule: string = '@n8n/scan-community-package/scanner/scanner.mjs';
const { analyzePackage, SOURCE_FILE_PATTERNS } = (await import(scannerModule)) as Scanner;

const root = process.cwd();
const unpacked = mkdtempSync(path.join(tmpdir(), 'scan-'));
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const packOutput = execFileSync(
	'npm',
	['pack', '--silent', '--ignore-scripts', '--pack-destination', unpacked],
	{ cwd: root, encoding: 'utf8' },
);
execFileSync('tar', [
	'-xzf',
	path.join(unpacked, packOutput.trim()),
	'-C',
	unpacked,
	'--strip-components=1',
]);

const results = {
	source: await analyzePackage(root, SOURCE_FILE_PATTERNS),
	tarball: await analyzePackage(unpacked, ['**/*.js', 'package.json']),
};
rmSync(unpacked, { recursive: true, force: true });
for (const [part, result] of Object.entries(results)) {
	console.log(
		`${result.passed ? 'passed' : 'FAILED'}: ${part}${result.message ? ` (${result.message})` : ''}`,
	);
	if (result.details) console.log(result.details);
}
process.exitCode = Object.values(results).every((result) => result.passed) ? 0 : 1;
