// `npm run release -- <patch|minor|major> [--dry-run]`: checks the package's repository, author and
// homepage and a clean tree, runs lint, build and the fast tests, bumps the version, moves the
// changelog's Unreleased section under the new version with today's date, commits and tags. Pushing the tag starts the publish workflow.
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
	return execFileSync(command, commandArgs, {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
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

export function releaseChangelog(
	changelog: string,
	version: string,
	date: string,
	repositoryUrl: string,
): string {
	const heading = '## [Unreleased]';
	if (!changelog.includes(heading))
		throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
	return changelog
		.replace(heading, `${heading}\n\n## [${version}] - ${date}`)
		.replace(
			/^\[Unreleased\]: .*$/m,
			(link) => `${link}\n[${version}]: ${repositoryUrl}/releases/tag/v${version}`,
		);
}

type PackageMetadata = {
	repository?: string | { url?: string };
	author?: string | { name?: string; email?: string };
	homepage?: string;
};

const PLACEHOLDER = /^\s*$|[<>]|\.\.\.|example\.(com|org|net)|your[-_ ]|\b(todo|tbd|changeme)\b/i;
const GITHUB_REPOSITORY = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?$/;

/** `https://github.com/<owner>/<name>` from package.json's repository, if it names a GitHub repository. */
export function githubRepository(pkg: PackageMetadata): { owner: string; url: string } | undefined {
	const url = (typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url) ?? '';
	const match = PLACEHOLDER.test(url) ? null : GITHUB_REPOSITORY.exec(url);
	return match ? { owner: match[1], url: `https://github.com/${match[1]}/${match[2]}` } : undefined;
}

/**
 * What is wrong with the metadata n8n's reviewers compare with the GitHub repository the package is
 * published from: placeholders left from a template, or a homepage or author from somewhere else.
 */
export function metadataProblems(pkg: PackageMetadata): string[] {
	const problems: string[] = [];
	const repository = githubRepository(pkg);
	if (!repository)
		problems.push(
			'"repository" must be the GitHub repository, e.g. https://github.com/<owner>/<name>.git',
		);
	const homepageRepository = /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+/.exec(
		pkg.homepage ?? '',
	)?.[0];
	if (
		!homepageRepository ||
		(repository && homepageRepository.toLowerCase() !== repository.url.toLowerCase())
	) {
		problems.push(
			`"homepage" must be the repository's page, e.g. ${repository?.url ?? 'https://github.com/<owner>/<name>'}#readme`,
		);
	}
	const author =
		typeof pkg.author === 'string'
			? { name: pkg.author.replace(/[<(].*/, ''), email: /<(.*)>/.exec(pkg.author)?.[1] }
			: pkg.author;
	const name = author?.name ?? '';
	const email = author?.email ?? '';
	if (PLACEHOLDER.test(name) || PLACEHOLDER.test(email) || !/^[^@\s]+@[^@\s]+\.\w+$/.test(email)) {
		problems.push('"author" needs a real name and email');
	}
	const githubUser = /^(?:\d+\+)?([\w.-]+)@users\.noreply\.github\.com$/i.exec(email)?.[1];
	if (repository && githubUser && githubUser.toLowerCase() !== repository.owner.toLowerCase()) {
		problems.push(
			`"author" email is GitHub's address of ${githubUser}, not of the repository's owner ${repository.owner}`,
		);
	}
	return problems;
}

function main() {
	if (!bump || !BUMPS.includes(bump)) {
		console.error('Usage: npm run release -- <patch|minor|major> [--dry-run]');
		process.exit(2);
	}
	const packagePath = path.join(root, 'package.json');
	const packageText = readFileSync(packagePath, 'utf8');
	const packageJson = JSON.parse(packageText);
	const problems = metadataProblems(packageJson);
	if (problems.length > 0) {
		console.error(`Refusing to release: fix package.json first.\n- ${problems.join('\n- ')}`);
		process.exit(1);
	}
	const status = run('git', ['status', '--porcelain']);
	if (status.trim() !== '') {
		console.error(`The working tree is not clean; commit or stash first:\n${status}`);
		process.exit(1);
	}
	runVisible('npm', ['run', 'lint']);
	runVisible('npm', ['run', 'build']);
	runVisible('npm', ['run', 'test:fast']);

	const changelogPath = path.join(root, 'CHANGELOG.md');
	const version = nextVersion(packageJson.version, bump);
	const date = new Date().toISOString().slice(0, 10);
	const changelog = releaseChangelog(
		readFileSync(changelogPath, 'utf8'),
		version,
		date,
		githubRepository(packageJson)!.url,
	);
	const tag = `v${version}`;

	if (dryRun) {
		console.log(`[dry run] would set package.json version ${packageJson.version} -> ${version}`);
		console.log(`[dry run] would run npm install --package-lock-only to update package-lock.json`);
		console.log(
			`[dry run] would add "## [${version}] - ${date}" under "## [Unreleased]" in CHANGELOG.md`,
		);
		console.log(`[dry run] would commit "Release ${version}" and tag ${tag}`);
		console.log(`[dry run] nothing changed; push with: git push origin main ${tag}`);
		return;
	}
	packageJson.version = version;
	const indent = /^[ \t]+/m.exec(packageText)?.[0] ?? '\t';
	writeFileSync(packagePath, `${JSON.stringify(packageJson, null, indent)}\n`);
	writeFileSync(changelogPath, changelog);
	run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund']);
	run('git', ['add', 'package.json', 'package-lock.json', 'CHANGELOG.md']);
	run('git', ['commit', '-m', `Release ${version}`]);
	run('git', ['tag', '-a', tag, '-m', `Release ${version}`]);
	console.log(`Released ${version}. Publish with: git push origin main ${tag}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
