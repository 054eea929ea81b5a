import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { findFreePort } from '../freePort.mts';
import { postgresBinFolder } from './debianPackages.mts';

/** A PostgreSQL cluster of its own: own data folder, own port, trust authentication on 127.0.0.1 only. */
export interface PrivatePostgres {
	port: number;
	/** The n8n settings that point n8n at this cluster. */
	n8nEnv: Record<string, string>;
	stop(): Promise<void>;
}

const databaseUser = 'n8n';

/** initdb and postgres refuse to run as root: as root, the cluster runs as Debian's `postgres` user. */
function asClusterOwner(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
	const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
	return { uid, gid };
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
	const bin = postgresBinFolder();
	if (!bin) throw new Error('PostgreSQL is not installed (see ensureQueuePackages)');
	const owner = asClusterOwner();
	const root = mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-postgres-'));
	const dataFolder = path.join(root, 'data');
	if (owner) {
		chownSync(root, owner.uid, owner.gid);
		chmodSync(root, 0o700);
	}
	const run = (command: string, args: string[]) =>
		execFileSync(path.join(bin, command), args, { cwd: root, stdio: 'pipe', ...owner });

	run('initdb', ['-D', dataFolder, '-U', databaseUser, '--auth=trust', '--no-sync', '-E', 'UTF8']);
	const port = await findFreePort();
	const serverOptions = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
	run('pg_ctl', [
		'-D',
		dataFolder,
		'-l',
		path.join(root, 'server.log'),
		'-o',
		serverOptions,
		'-w',
		'start',
	]);

	return {
		port,
		n8nEnv: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: 'postgres',
			DB_POSTGRESDB_USER: databaseUser,
			DB_POSTGRESDB_PASSWORD: '',
			// n8n waits 20 s for a connection of its pool by default: on a 2-core machine with both cores
			// busy, a main, two workers and Postgres took longer, and n8n failed the request.
			DB_POSTGRESDB_CONNECTION_TIMEOUT: '120000',
		},
		stop: async () => {
			try {
				run('pg_ctl', ['-D', dataFolder, '-m', 'fast', '-w', 'stop']);
			} finally {
				rmSync(root, { recursive: true, force: true });
			}
		},
	};
}
