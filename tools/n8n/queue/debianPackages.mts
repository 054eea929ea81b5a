import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

import { installDebianPackages } from '../debianPackages.mts';

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

/** Installs redis-server and postgresql from Debian's packages when they are missing; apt is not touched when both are there. */
export function ensureQueuePackages(log: (message: string) => void = () => {}): void {
	const missing = [
		...(onPath('redis-server') ? [] : ['redis-server']),
		...(postgresBinFolder() ? [] : ['postgresql']),
	];
	if (missing.length > 0) installDebianPackages(missing, 'Queue mode', log);
}
