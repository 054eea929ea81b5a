import { readFileSync } from 'node:fs';
import path from 'node:path';

import { repoRoot } from './repoPaths.mts';

/**
 * The package's npm name, read from package.json: n8n names every node type of a community
 * package `<package name>.<node name>`.
 */
export const packageName = (
	JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string }
).name;
