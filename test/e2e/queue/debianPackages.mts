import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const postgresRoot = '/usr/lib/postgresql';

/** The bin folder of the newest PostgreSQL installed from Debian's packages, if any. */
export function postgresBinFolder(): string | undefined {
	if (!existsSync(postgresRoot)) return undefined;
	const versions = readdirSync(postgresRoot)
		.filter((version) => existsSync(`${postgresRoot}/${version}/bin/initdb`))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? `${postgresRoot}/${versions[0]}/bin` : undefined;
}

function onPath(command: string): boolean {
	try {
		execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

function canSudoWithoutPassword(): boolean {
	try {
		execFileSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/**
 * Installs redis-server and postgresql from Debian's packages when they are missing (needs root, or
 * sudo without a password, as on CI). Nothing is installed, and apt is not touched, when both are there.
 */
export function ensureQueuePackages(log: (message: string) => void = () => {}): void {
	const missing = [
		...(onPath('redis-server') ? [] : ['redis-server']),
		...(postgresBinFolder() ? [] : ['postgresql']),
	];
	if (missing.length === 0) return;
	// As root (CI machines, containers) apt-get runs directly; elsewhere only through a sudo that asks
	// no password (GitHub's runners), never a prompt in the middle of a test run.
	const asRoot = process.getuid?.() === 0;
	if (!asRoot && !canSudoWithoutPassword()) {
		throw new Error(
			`Queue mode needs ${missing.join(' and ')}: install them with apt-get install ${missing.join(' ')}`,
		);
	}
	log(`Installing ${missing.join(', ')} from Debian's packages`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const aptGet = (args: string[]) =>
		asRoot
			? execFileSync('apt-get', args, { stdio: 'ignore', env })
			: execFileSync('sudo', ['-n', '--preserve-env=DEBIAN_FRONTEND', 'apt-get', ...args], {
					stdio: 'ignore',
					env,
				});
	aptGet(['update', '-qq']);
	aptGet(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
}
