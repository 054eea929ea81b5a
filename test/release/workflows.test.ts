// The package can only be verified by n8n if it is published from GitHub Actions with provenance:
// these checks keep the workflows and the published tarball as n8n's reviewers expect them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { nextVersion, releaseChangelog } from '../../scripts/release.ts';

const root = path.resolve(import.meta.dirname, '../..');

type Step = { run?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, string> };
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
		expect(steps(flow).map((s) => s.run).filter(Boolean)).toEqual(['bash .ci/run']);
		expect(readFileSync(path.join(root, '.github/workflows/ci.yml'), 'utf8')).not.toContain('secrets.');
	});
});

describe('publish workflow', () => {
	const flow = workflow('publish.yml');
	const runs = steps(flow).flatMap((s) => (s.run ? [s.run] : []));

	it('runs on version tags only', () => {
		expect(flow.on).toEqual({ push: { tags: ['v*'] } });
	});

	it('has exactly the permissions trusted publishing needs', () => {
		expect(flow.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		for (const job of Object.values(flow.jobs)) expect(job.permissions).toBeUndefined();
	});

	it('uses Node 24 against the npm registry', () => {
		expect(String(setupNode(flow).with?.['node-version'])).toBe('24');
		expect(setupNode(flow).with?.['registry-url']).toBe('https://registry.npmjs.org');
	});

	it('sets up, builds, lints and runs the fast tests before publishing with provenance', () => {
		const publish = runs.findIndex((r) => r.startsWith('npm publish'));
		expect(runs.slice(0, publish)).toEqual(['npm run setup', 'npm run build', 'npm run lint', 'npm run test:fast']);
		expect(runs[publish].split(/\s+/)).toEqual(['npm', 'publish', '--provenance', '--access', 'public']);
		expect(publish).toBe(runs.length - 1);
	});

	it('passes the fallback token only through the environment, never printing it', () => {
		const publishStep = steps(flow).find((s) => s.run?.startsWith('npm publish'))!;
		expect(publishStep.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
		for (const run of runs) expect(run).not.toMatch(/secrets\.|NODE_AUTH_TOKEN|NPM_TOKEN/);
	});

	it('runs fast tests that leave out only the end-to-end folder', () => {
		const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
		expect(scripts['test:fast']).toBe(`${scripts.test} --exclude "test/e2e/**"`);
	});
});

describe('published tarball', () => {
	let files: string[];

	beforeAll(() => {
		execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
		const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }));
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
		expect(files.filter((f) => f.startsWith('dist/icons/'))).toEqual(['dist/icons/librebor.dark.svg', 'dist/icons/librebor.svg']);
		const unexpected = files.filter(
			(f) => !expected.includes(f) && !f.startsWith('dist/icons/') && !/^dist\/(credentials|nodes)\/.+\.js$/.test(f),
		);
		expect(unexpected).toEqual([]);
		expect(files.some((f) => f.startsWith('test/') || f.endsWith('.ts') || f.endsWith('.map'))).toBe(false);
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
		const released = releaseChangelog(changelog, '1.0.0', '2026-05-01');
		expect(released).toMatch(/## \[Unreleased\]\n\n## \[1\.0\.0\] - 2026-05-01\n\n### Added/);
		expect(released).toContain('[1.0.0]: https://github.com/n8n-nodes-librebor/n8n-nodes-librebor/releases/tag/v1.0.0');
	});

	it('refuses to release from a tree with uncommitted changes', () => {
		// An empty index makes every tracked file look deleted, as a dirty tree would, without touching it.
		expect(() =>
			execFileSync('node', ['scripts/release.ts', 'patch', '--dry-run'], {
				cwd: root,
				env: { ...process.env, GIT_INDEX_FILE: path.join(root, '.git-no-such-index') },
				stdio: 'pipe',
			}),
		).toThrow(/not clean/);
	});
});
