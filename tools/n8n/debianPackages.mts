import { execFileSync } from 'node:child_process';

function canSudoWithoutPassword(): boolean {
	try {
		execFileSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/**
 * Installs Debian packages with apt-get: as root directly (CI machines, containers), elsewhere only
 * through a sudo that asks no password (GitHub's runners), never a prompt in the middle of a test run.
 */
export function installDebianPackages(
	packages: string[],
	purpose: string,
	log: (message: string) => void = () => {},
): void {
	const asRoot = process.getuid?.() === 0;
	if (!asRoot && !canSudoWithoutPassword()) {
		throw new Error(
			`${purpose} needs ${packages.join(' and ')}: install it with apt-get install ${packages.join(' ')}`,
		);
	}
	log(`Installing ${packages.join(', ')} from Debian's packages`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const aptGet = (args: string[]) =>
		asRoot
			? execFileSync('apt-get', args, { stdio: 'ignore', env })
			: execFileSync('sudo', ['-n', '--preserve-env=DEBIAN_FRONTEND', 'apt-get', ...args], {
					stdio: 'ignore',
					env,
				});
	aptGet(['update', '-qq']);
	aptGet(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
}
