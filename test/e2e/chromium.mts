import { existsSync } from 'node:fs';

import { installDebianPackages } from './debianPackages.mts';

/** Debian's chromium, which playwright-core drives (it ships no browser of its own). */
export const chromiumPath = '/usr/bin/chromium';

/** Installs Debian's chromium when it is missing and returns its path. */
export function ensureChromium(log?: (message: string) => void): string {
	if (!existsSync(chromiumPath)) installDebianPackages(['chromium'], 'The browser test', log);
	return chromiumPath;
}
