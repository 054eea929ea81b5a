import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { packedLibreBorPackage, type PackedPackage } from './libreBorPackage.mts';
import { libreBorNodeType, libreBorTriggerNodeType } from '../../tools/n8n/libreBorN8n.mts';
import { createN8nWithLibreBor } from './n8nWithLibreBor.mts';
import { linesMentioning, problemsMentioning } from '../../tools/n8n/n8nLog.mts';
import { N8nRestClient } from '../../tools/n8n/n8nRestClient.mts';
import { startN8n, type N8nServer } from '../../tools/n8n/n8nServer.mts';
import type { N8nUserFolder } from '../../tools/n8n/n8nUserFolder.mts';
import { repoRoot } from '../../tools/repoPaths.mts';

const setupTimeoutMs = 600_000;
const testTimeoutMs = 180_000;

interface PackageManifest {
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	n8n: { n8nNodesApiVersion: number; strict: boolean; credentials: string[]; nodes: string[] };
	[field: string]: unknown;
}

function manifestInside(tarball: string): PackageManifest {
	return JSON.parse(
		execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
	);
}

/** The source a built file comes from, if the build makes it (compiled, or copied as it is). */
function sourceOf(builtFile: string): string | undefined {
	const relative = builtFile.replace(/^dist\//, '');
	if (relative.endsWith('.js')) return relative.replace(/\.js$/, '.ts');
	if (/\.(svg|node\.json)$/.test(relative)) return relative;
	return undefined;
}

describe('the packed n8n-nodes-librebor package', () => {
	let packed: PackedPackage;

	beforeAll(async () => {
		packed = await packedLibreBorPackage();
	}, setupTimeoutMs);

	it('holds only the build, the README, the license and package.json', () => {
		const outside = packed.files.filter(
			(file) =>
				!file.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(file),
		);

		expect(outside).toEqual([]);
		expect(packed.files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
	});

	it('ships no build output that the current sources do not produce', () => {
		const leftovers = packed.files
			.filter((file) => file.startsWith('dist/'))
			.filter((file) => {
				const source = sourceOf(file);
				return source === undefined || !existsSync(path.join(repoRoot, source));
			});

		// Whatever an earlier build left in dist/ ships too, unless the build starts from an empty dist/.
		expect(leftovers, 'files in dist/ that no current source produces').toEqual([]);
	});

	it('declares no runtime dependencies and n8n-workflow as its only peer', () => {
		const manifest = manifestInside(packed.tarball);

		expect(manifest.dependencies ?? {}).toEqual({});
		expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});

	it('contains every file its n8n section names', () => {
		const { n8n } = manifestInside(packed.tarball);
		const declared = [...n8n.credentials, ...n8n.nodes];

		expect(n8n.n8nNodesApiVersion).toBe(1);
		expect(n8n.strict).toBe(true);
		expect(n8n.credentials).toHaveLength(1);
		expect(n8n.nodes).toHaveLength(2);
		expect(declared.filter((file) => !packed.files.includes(file))).toEqual([]);
	});
});

describe('n8n-nodes-librebor installed into a real n8n', () => {
	let folder: N8nUserFolder;
	let server: N8nServer;
	let rest: N8nRestClient;

	beforeAll(async () => {
		folder = await createN8nWithLibreBor();
		server = await startN8n(folder);
		rest = await N8nRestClient.signIn(server);
	}, setupTimeoutMs);

	afterAll(async () => {
		await server?.stop();
		await folder?.remove();
	}, testTimeoutMs);

	it('offers the LibreBOR node, usable as an AI tool, with its icons', async () => {
		const types = await rest.nodeTypes();
		const node = types.find((type) => type.name === libreBorNodeType);

		// Version 3 (registry look-ups) for new nodes; versions 1 and 2 for the workflows saved before.
		expect(node).toMatchObject({
			displayName: 'LibreBOR',
			version: [1, 2, 3],
			defaultVersion: 3,
			usableAsTool: true,
		});
		// The codex file: the node panel finds the node by these words.
		expect(node?.codex?.alias).toEqual(expect.arrayContaining(['BORME', 'cuentas anuales']));
		await expectIconsServed(node as unknown as IconDescription);
		// n8n derives an AI-agent tool from every node that is usable as a tool.
		expect(types.map((type) => type.name)).toContain(`${libreBorNodeType}Tool`);
	});

	it('offers the LibreBOR Trigger with its icons: version 3 for new nodes, versions 2 and 1 (polling) for saved ones', async () => {
		const versions = (await rest.nodeTypes())
			.filter((type) => type.name === libreBorTriggerNodeType)
			.sort((a, b) => Number(a.version) - Number(b.version));

		expect(versions.map(({ version }) => version)).toEqual([1, 2, 3]);
		for (const node of versions) {
			expect(node).toMatchObject({ displayName: 'LibreBOR Trigger', inputs: [] });
			expect(node.usableAsTool).toBeFalsy();
			await expectIconsServed(node as unknown as IconDescription);
		}
		expect(versions.map(({ polling }) => polling === true)).toEqual([true, false, false]);
	});

	it('offers the LibreBOR API credential with a hidden password', async () => {
		const credential = (await rest.credentialTypes()).find((type) => type.name === 'libreBorApi');

		expect(credential).toMatchObject({ displayName: 'LibreBOR API' });
		const properties = new Map(credential?.properties.map((property) => [property.name, property]));
		expect([...properties.keys()]).toEqual(
			expect.arrayContaining(['environment', 'baseUrl', 'username', 'password']),
		);
		expect(properties.get('password')?.typeOptions?.password).toBe(true);
		expect(properties.get('environment')?.default).toBe('production');
	});

	it('logs no error or warning about the package', () => {
		const suspicious = linesMentioning(server.output.all, /librebor/i).filter((line) =>
			/error|warn|fail/i.test(line),
		);

		expect(problemsMentioning(server.logEntries(), /librebor/i)).toEqual([]);
		expect(suspicious).toEqual([]);
	});

	interface IconDescription {
		iconUrl?: { light?: string; dark?: string };
	}

	/** The editor shows a node's icon from `iconUrl`, which n8n serves from the package's files. */
	async function expectIconsServed(node: IconDescription): Promise<void> {
		const { light, dark } = node.iconUrl ?? {};
		expect(light, 'light icon URL').toMatch(/\.svg$/);
		expect(dark, 'dark icon URL').toMatch(/\.svg$/);
		const served = await Promise.all(
			[light, dark].map(async (url) => {
				const response = await fetch(`${server.baseUrl}/${url}`);
				expect(response.status, url).toBe(200);
				return await response.text();
			}),
		);
		expect(served[0]).toBe(readFileSync(path.join(repoRoot, 'icons', 'librebor.svg'), 'utf8'));
		expect(served[1]).toBe(readFileSync(path.join(repoRoot, 'icons', 'librebor.dark.svg'), 'utf8'));
	}
});
