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

/**
 * Installs redis-server and postgresql from Debian's packages when they are missing (needs root, as
 * on CI). Nothing is installed, and apt is not touched, when both are there.
 */
export function ensureQueuePackages(log: (message: string) => void = () => {}): void {
	const missing = [
		...(onPath('redis-server') ? [] : ['redis-server']),
		...(postgresBinFolder() ? [] : ['postgresql']),
	];
	if (missing.length === 0) return;
	if (process.getuid?.() !== 0) {
		throw new Error(`Queue mode needs ${missing.join(' and ')}: install them with apt-get install ${missing.join(' ')}`);
	}
	log(`Installing ${missing.join(', ')} from Debian's packages`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
	execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'ignore', env });
}
