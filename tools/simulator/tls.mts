// Loads the simulator's test certificate (made by scripts/make-test-certs.sh). The project is
// type-checked as CommonJS, where import.meta is refused, so the folder is found from the working
// directory upwards (tests, npm scripts and the CLI all run inside the project).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const RELATIVE_TLS_DIR = join('tools', 'simulator', 'tls');

export interface TlsMaterial {
	cert: Buffer;
	key: Buffer;
}

export function findTlsDir(start = process.cwd()): string {
	let directory = resolve(start);
	for (;;) {
		const candidate = join(directory, RELATIVE_TLS_DIR);
		if (existsSync(join(candidate, 'server.pem'))) return candidate;
		const parent = dirname(directory);
		if (parent === directory) {
			throw new Error(
				`Cannot find ${RELATIVE_TLS_DIR}/server.pem above ${start}; set tlsDir or LIBREBOR_SIM_TLS_DIR`,
			);
		}
		directory = parent;
	}
}

export function loadTls(tlsDir?: string): TlsMaterial {
	const directory = tlsDir ?? process.env.LIBREBOR_SIM_TLS_DIR ?? findTlsDir();
	return {
		cert: readFileSync(join(directory, 'server.pem')),
		key: readFileSync(join(directory, 'server-key.pem')),
	};
}
