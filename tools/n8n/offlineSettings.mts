import { readFileSync } from 'node:fs';
import path from 'node:path';

import { n8nScriptsFolder } from '../repoPaths.mts';

/** The n8n settings in scripts/n8n/offline.env: no calls home, no telemetry, no needless notices. */
export function readOfflineSettings(): Record<string, string> {
	const text = readFileSync(path.join(n8nScriptsFolder, 'offline.env'), 'utf8');
	const settings: Record<string, string> = {};
	for (const line of text.split('\n')) {
		const trimmed = line.trim();
		if (trimmed === '' || trimmed.startsWith('#')) continue;
		const separator = trimmed.indexOf('=');
		settings[trimmed.slice(0, separator)] = trimmed.slice(separator + 1);
	}
	return settings;
}
