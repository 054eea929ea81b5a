// `npm run release -- <patch|minor|major> [--dry-run]`: checks a clean tree, runs lint, build and
// the fast tests, bumps the version, moves the changelog's Unreleased section under the new
// version with today's date, commits and tags. Pushing the tag starts the publish workflow.
// With --dry-run every check still runs, and the file changes, commit and tag are only printed.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const BUMPS = ['patch', 'minor', 'major'] as const;
type Bump = (typeof BUMPS)[number];

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const bump = args.find((arg) => !arg.startsWith('--')) as Bump | undefined;

function run(command: string, commandArgs: string[]): string {
	console.log(`$ ${command} ${commandArgs.join(' ')}`);
	return execFileSync(command, commandArgs, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

function runVisible(command: string, commandArgs: string[]) {
	console.log(`$ ${command} ${commandArgs.join(' ')}`);
	execFileSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
}

export function nextVersion(current: string, kind: Bump): string {
	const [major, minor, patch] = current.split('.').map(Number);
	if (kind === 'major') return `${major + 1}.0.0`;
	if (kind === 'minor') return `${major}.${minor + 1}.0`;
	return `${major}.${minor}.${patch + 1}`;
}

export function releaseChangelog(changelog: string, version: string, date: string): string {
	const heading = '## [Unreleased]';
	if (!changelog.includes(heading)) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
	return changelog
		.replace(heading, `${heading}\n\n## [${version}] - ${date}`)
		.replace(/^\[Unreleased\]: .*$/m, (link) => `${link}\n[${version}]: https://github.com/n8n-nodes-librebor/n8n-nodes-librebor/releases/tag/v${version}`);
}

function main() {
	if (!bump || !BUMPS.includes(bump)) {
		console.error('Usage: npm run release -- <patch|minor|major> [--dry-run]');
		process.exit(2);
	}
	const status = run('git', ['status', '--porcelain']);
	if (status.trim() !== '') {
		console.error(`The working tree is not clean; commit or stash first:\n${status}`);
		process.exit(1);
	}
	runVisible('npm', ['run', 'lint']);
	runVisible('npm', ['run', 'build']);
	runVisible('npm', ['run', 'test:fast']);

	const packagePath = path.join(root, 'package.json');
	const changelogPath = path.join(root, 'CHANGELOG.md');
	const packageJson = JSON.parse(readFileSync(packagePath, 'utf8'));
	const version = nextVersion(packageJson.version, bump);
	const date = new Date().toISOString().slice(0, 10);
	const changelog = releaseChangelog(readFileSync(changelogPath, 'utf8'), version, date);
	const tag = `v${version}`;

	if (dryRun) {
		console.log(`[dry run] would set package.json version ${packageJson.version} -> ${version}`);
		console.log(`[dry run] would run npm install --package-lock-only to update package-lock.json`);
		console.log(`[dry run] would add "## [${version}] - ${date}" under "## [Unreleased]" in CHANGELOG.md`);
		console.log(`[dry run] would commit "Release ${version}" and tag ${tag}`);
		console.log(`[dry run] nothing changed; push with: git push origin main ${tag}`);
		return;
	}
	packageJson.version = version;
	writeFileSync(packagePath, `${JSON.stringify(packageJson, null, 2)}\n`);
	writeFileSync(changelogPath, changelog);
	run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund']);
	run('git', ['add', 'package.json', 'package-lock.json', 'CHANGELOG.md']);
	run('git', ['commit', '-m', `Release ${version}`]);
	run('git', ['tag', '-a', tag, '-m', `Release ${version}`]);
	console.log(`Released ${version}. Publish with: git push origin main ${tag}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
