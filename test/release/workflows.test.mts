// The package can only be verified by n8n if it is published from GitHub Actions with provenance:
// these checks keep the workflows and the published tarball as n8n's reviewers expect them.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { LibreBorApi } from '../../credentials/LibreBorApi.credentials.ts';
import {
	githubRepository,
	metadataProblems,
	nextVersion,
	releaseChangelog,
} from '../../scripts/release.mts';

const root = path.resolve(import.meta.dirname, '../..');

type Step = {
	run?: string;
	uses?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
};
type Workflow = {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, { steps: Step[]; permissions?: unknown }>;
};

function workflow(name: string): Workflow {
	return parse(readFileSync(path.join(root, '.github/workflows', name), 'utf8')) as Workflow;
}

function steps(flow: Workflow): Step[] {
	return Object.values(flow.jobs).flatMap((job) => job.steps);
}

function setupNode(flow: Workflow): Step {
	const step = steps(flow).find((s) => s.uses?.startsWith('actions/setup-node@'));
	expect(step, 'actions/setup-node step').toBeDefined();
	return step!;
}

describe('CI workflow', () => {
	const flow = workflow('ci.yml');

	it('runs on every push and pull request, on Node 24 with the npm cache', () => {
		expect(Object.keys(flow.on).sort()).toEqual(['pull_request', 'push']);
		expect(String(setupNode(flow).with?.['node-version'])).toBe('24');
		expect(setupNode(flow).with?.cache).toBe('npm');
	});

	it('runs the same entry point as a developer, and needs no secret', () => {
		expect(
			steps(flow)
				.map((s) => s.run)
				.filter(Boolean),
		).toEqual(['bash .ci/run']);
		expect(readFileSync(path.join(root, '.github/workflows/ci.yml'), 'utf8')).not.toContain(
			'secrets.',
		);
	});
});

describe('publish workflow', () => {
	const flow = workflow('publish.yml');
	const runs = steps(flow).flatMap((s) => (s.run ? [s.run] : []));
	const publishStep = () => steps(flow).find((s) => s.run?.includes('npm publish'))!;

	/** Runs the publish step's script as GitHub Actions would, with an `npm` that records its calls. */
	function runPublishStep(secret: string): string[] {
		const bin = mkdtempSync(path.join(tmpdir(), 'publish-step-'));
		const calls = path.join(bin, 'calls');
		writeFileSync(calls, '');
		const npm = `#!/bin/sh\n[ -z "\${NODE_AUTH_TOKEN+set}" ] || echo "NODE_AUTH_TOKEN set" >> '${calls}'\necho "$*" >> '${calls}'\n`;
		writeFileSync(path.join(bin, 'npm'), npm, { mode: 0o755 });
		const stepEnv = Object.entries(publishStep().env ?? {}).map(([name, value]) => [
			name,
			value.replace('${{ secrets.NPM_TOKEN }}', secret),
		]);
		execFileSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', publishStep().run!], {
			env: { PATH: `${bin}:${process.env.PATH}`, ...Object.fromEntries(stepEnv) },
		});
		return readFileSync(calls, 'utf8').trim().split('\n');
	}

	it('runs on version tags only', () => {
		expect(flow.on).toEqual({ push: { tags: ['v*'] } });
	});

	it('has exactly the permissions trusted publishing needs', () => {
		expect(flow.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		for (const job of Object.values(flow.jobs)) expect(job.permissions).toBeUndefined();
	});

	it('uses Node 24 and an npm that supports trusted publishing (11.5.1 or later)', () => {
		expect(String(setupNode(flow).with?.['node-version'])).toBe('24');
		expect(runs.slice(0, runs.indexOf('npm run setup'))).toEqual([
			'npm install --global npm@^11.5.1',
		]);
	});

	it('sets up, builds, lints and runs the fast tests before publishing with provenance', () => {
		const publish = runs.findIndex((r) => r.includes('npm publish'));
		expect(runs.slice(1, publish)).toEqual([
			'npm run setup',
			'npm run build',
			'npm run lint',
			'npm run test:fast',
		]);
		expect(publish).toBe(runs.length - 1);
	});

	// A token line in npm's config, even an empty or placeholder one (setup-node's registry-url
	// writes one), makes npm skip trusted publishing (OIDC) and fail.
	it('hands npm the fallback token only when the NPM_TOKEN secret is set', () => {
		expect(setupNode(flow).with).not.toHaveProperty('registry-url');
		expect(runPublishStep('')).toEqual(['publish --provenance --access public']);
		expect(runPublishStep('npm_fallback')).toEqual([
			'config set //registry.npmjs.org/:_authToken npm_fallback',
			'publish --provenance --access public',
		]);
		const secretUses = steps(flow).filter((s) => JSON.stringify(s).includes('secrets.'));
		expect(secretUses).toEqual([publishStep()]);
	});

	it("refuses a publish from anywhere but the publish step, as n8n's starter does (prepublishOnly)", () => {
		const prepublish = (env: NodeJS.ProcessEnv) =>
			spawnSync('npm', ['run', 'prepublishOnly'], { cwd: root, encoding: 'utf8', env });
		const { RELEASE_MODE: _, ...laptop } = process.env;
		const refused = prepublish(laptop);
		expect(refused.status).not.toBe(0);
		expect(refused.stdout).toContain('npm run release');
		expect(prepublish({ ...laptop, RELEASE_MODE: publishStep().env?.RELEASE_MODE }).status).toBe(0);
	});

	it('runs fast tests that leave out only the end-to-end lane', () => {
		const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
		expect(scripts['test:fast']).toBe(`${scripts.test} --project '!e2e'`);
	});
});

describe('published tarball', () => {
	let files: string[];

	beforeAll(() => {
		execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
		const [pack] = JSON.parse(
			execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
				cwd: root,
				encoding: 'utf8',
			}),
		);
		files = pack.files.map((file: { path: string }) => file.path).sort();
	}, 120_000);

	it('holds exactly the built credential, nodes, icons, codex files, README, LICENSE and package.json', () => {
		const expected = [
			'LICENSE',
			'README.md',
			'package.json',
			'dist/credentials/LibreBorApi.credentials.js',
			'dist/nodes/LibreBor/LibreBor.node.js',
			'dist/nodes/LibreBor/LibreBor.node.json',
			'dist/nodes/LibreBor/LibreBorTrigger.node.js',
			'dist/nodes/LibreBor/LibreBorTrigger.node.json',
		];
		for (const file of expected) expect(files).toContain(file);
		expect(files.filter((f) => f.startsWith('dist/icons/'))).toEqual([
			'dist/icons/librebor.dark.svg',
			'dist/icons/librebor.svg',
		]);
		const unexpected = files.filter(
			(f) =>
				!expected.includes(f) &&
				!f.startsWith('dist/icons/') &&
				!/^dist\/(credentials|nodes)\/.+\.js$/.test(f),
		);
		expect(unexpected).toEqual([]);
		expect(
			files.some((f) => /^(test|tools)\//.test(f) || f.endsWith('.ts') || f.endsWith('.map')),
		).toBe(false);
	});
});

describe('package metadata', () => {
	const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

	it('names its GitHub repository, homepage and author consistently, and documents itself in the README there', () => {
		expect(metadataProblems(packageJson)).toEqual([]);
		const codexFiles = ['LibreBor', 'LibreBorTrigger'].map((node) =>
			readFileSync(path.join(root, `nodes/LibreBor/${node}.node.json`), 'utf8'),
		);
		const codexLinks = codexFiles.flatMap((codex) =>
			Object.values(JSON.parse(codex).resources as Record<string, Array<{ url: string }>>).flat(),
		);
		const links = [new LibreBorApi().documentationUrl, ...codexLinks.map((link) => link.url)];
		expect(links.map((url) => url.replace(/#.*/, ''))).toEqual(
			links.map(() => githubRepository(packageJson)?.url),
		);
		expect(links.map((url) => url.replace(/.*#/, '#'))).toEqual([
			'#credentials',
			'#credentials',
			'#readme',
			'#credentials',
			'#readme',
		]);
	});
});

describe('release command', () => {
	it('bumps the version the maintainer asks for', () => {
		expect(nextVersion('0.1.0', 'major')).toBe('1.0.0');
		expect(nextVersion('1.2.3', 'minor')).toBe('1.3.0');
		expect(nextVersion('1.2.3', 'patch')).toBe('1.2.4');
	});

	it('moves the Unreleased changes under the new version with the date', () => {
		const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
		const released = releaseChangelog(
			changelog,
			'1.0.0',
			'2026-05-01',
			'https://github.com/n8n-nodes-librebor/n8n-nodes-librebor',
		);
		expect(released).toMatch(/## \[Unreleased\]\n\n## \[1\.0\.0\] - 2026-05-01\n\n### Added/);
		expect(released).toContain(
			'[1.0.0]: https://github.com/n8n-nodes-librebor/n8n-nodes-librebor/releases/tag/v1.0.0',
		);
	});

	// n8n's reviewers compare these with the GitHub repository the package is published from.
	it.each([
		[
			"still has the starter's placeholders",
			{
				repository: { url: 'https://github.com/<...>/n8n-nodes-<...>.git' },
				homepage: '',
				author: { name: '', email: '' },
			},
			/"repository"[^]*"homepage"[^]*"author"/,
		],
		[
			'names a homepage off its repository',
			{ homepage: 'https://librebor.me' },
			/"homepage" must be the repository's page/,
		],
		[
			'names another GitHub user as author',
			{ author: { name: 'A', email: 'someone@users.noreply.github.com' } },
			/"author" email is GitHub's address of someone/,
		],
	])('refuses to release a package.json that %s', (_, metadata, refusal) => {
		const copy = mkdtempSync(path.join(tmpdir(), 'release-'));
		mkdirSync(path.join(copy, 'scripts'));
		copyFileSync(path.join(root, 'scripts/release.mts'), path.join(copy, 'scripts/release.mts'));
		const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
		writeFileSync(path.join(copy, 'package.json'), JSON.stringify({ ...packageJson, ...metadata }));
		const release = spawnSync('node', ['scripts/release.mts', 'patch', '--dry-run'], {
			cwd: copy,
			encoding: 'utf8',
		});
		expect(release.status).toBe(1);
		expect(release.stderr).toMatch(/^Refusing to release/);
		expect(release.stderr).toMatch(refusal);
		expect(release.stdout).toBe('');
	});

	it('refuses to release from a tree with uncommitted changes', () => {
		// An empty index makes every tracked file look deleted, as a dirty tree would, without touching it.
		expect(() =>
			execFileSync('node', ['scripts/release.mts', 'patch', '--dry-run'], {
				cwd: root,
				env: { ...process.env, GIT_INDEX_FILE: path.join(root, '.git-no-such-index') },
				stdio: 'pipe',
			}),
		).toThrow(/not clean/);
	});
});
