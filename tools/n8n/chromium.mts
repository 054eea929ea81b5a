import { existsSync } from 'node:fs';

import { installDebianPackages } from './debianPackages.mts';

/**
 * Browsers playwright-core can drive (it ships none of its own): Debian's chromium first, then what
 * other machines already have (Google Chrome on GitHub's runners; Ubuntu's chromium-browser last, as
 * it may be only a stub that asks for snap).
 */
const candidates = [
	'/usr/bin/chromium',
	'/usr/bin/google-chrome',
	'/usr/bin/google-chrome-stable',
	'/usr/bin/chromium-browser',
];

/** A Chromium to drive: LIBREBOR_CHROMIUM, one already installed, or Debian's chromium installed now. */
export function ensureChromium(log?: (message: string) => void): string {
	const chosen = process.env.LIBREBOR_CHROMIUM ?? candidates.find((file) => existsSync(file));
	if (chosen) return chosen;
	installDebianPackages(['chromium'], 'The browser test', log);
	return candidates[0];
}
