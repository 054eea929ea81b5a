import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import type { N8nUserFolder } from './n8nUserFolder.mts';

interface PackageManifest {
	name: string;
	version: string;
	author?: { name?: string; email?: string };
	n8n: { nodes: string[] };
}

interface LoadedNodeClass {
	new (): {
		description: { name: string; displayName: string; version: number | number[] };
		currentVersion?: number;
	};
}

/** The rows n8n's installer writes for each node: its display name, type and newest version. */
function installedNodes(packageFolder: string, manifest: PackageManifest) {
	const load = createRequire(path.join(packageFolder, 'package.json'));
	return manifest.n8n.nodes.map((file) => {
		const exported = load(path.join(packageFolder, file)) as Record<string, LoadedNodeClass>;
		const node = new (Object.values(exported)[0])();
		const { name, displayName, version } = node.description;
		const latestVersion =
			node.currentVersion ?? (Array.isArray(version) ? version[version.length - 1] : version);
		return { name: displayName, type: `${manifest.name}.${name}`, latestVersion };
	});
}

/**
 * Records a community package in n8n's database as n8n 2.41's installer does after installing it from
 * Settings > Community Nodes (InstalledPackagesRepository.persistPackageWithNodes): one
 * `installed_packages` row and one `installed_nodes` row per node. n8n then lists it in Settings and
 * offers to update or uninstall it. n8n offers no command to do this for a package that is not on the
 * npm registry, so the rows are written directly; call it while n8n is stopped, after a command that
 * created the database (an import), with `packageFolder` holding the same build that was installed.
 */
export function recordInstalledPackage(folder: N8nUserFolder, packageFolder: string): void {
	const manifest = JSON.parse(
		readFileSync(path.join(packageFolder, 'package.json'), 'utf8'),
	) as PackageManifest;
	const nodes = installedNodes(packageFolder, manifest);
	const database = new DatabaseSync(path.join(folder.root, '.n8n', 'database.sqlite'));
	const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
	try {
		database.exec('BEGIN');
		database.prepare('DELETE FROM installed_nodes WHERE package = ?').run(manifest.name);
		database
			.prepare(
				`INSERT INTO installed_packages ("packageName", "installedVersion", "authorName", "authorEmail", "createdAt", "updatedAt")
				VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT ("packageName") DO UPDATE SET "installedVersion" = excluded."installedVersion",
					"authorName" = excluded."authorName", "authorEmail" = excluded."authorEmail", "updatedAt" = excluded."updatedAt"`,
			)
			.run(
				manifest.name,
				manifest.version,
				manifest.author?.name ?? null,
				manifest.author?.email ?? null,
				now,
				now,
			);
		const insertNode = database.prepare(
			'INSERT INTO installed_nodes ("name", "type", "latestVersion", "package") VALUES (?, ?, ?, ?)',
		);
		for (const node of nodes)
			insertNode.run(node.name, node.type, node.latestVersion, manifest.name);
		database.exec('COMMIT');
	} catch (error) {
		database.exec('ROLLBACK');
		throw error;
	} finally {
		database.close();
	}
}
