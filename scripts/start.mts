// The main job, `npm start`: n8n's editor with this package installed, a LibreBOR credential and the
// example workflows, against a local LibreBOR simulator unless a real account is configured.
//
// Environment:
//   LIBREBOR_USER, LIBREBOR_PASSWORD  a real LibreBOR API account (otherwise the simulator is used)
//   LIBREBOR_ENVIRONMENT              production (default), sandbox or custom
//   LIBREBOR_BASE_URL                 the https base URL, with LIBREBOR_ENVIRONMENT=custom
//   LIBREBOR_SKIP_BUILD=1             use dist/ as it is (tests that built it already)
//
// `npm start -- --queue` runs n8n in queue mode instead: a private Postgres and Redis (installed from
// Debian's packages when missing), the main process and two `n8n worker` processes, each with the package.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { packPackage, installCommunityPackage } from '../test/e2e/communityPackage.mts';
import { importCredentials, importWorkflows } from '../test/e2e/n8nCli.mts';
import { N8nRestClient, testOwner } from '../test/e2e/n8nRestClient.mts';
import { startN8n } from '../test/e2e/n8nServer.mts';
import { createN8nUserFolder } from '../test/e2e/n8nUserFolder.mts';
import { startQueueCluster } from '../test/e2e/queue/queueCluster.mts';
import { repoRoot } from '../test/e2e/repoPaths.mts';
import { startSimulator, type Simulator } from '../test/simulator/index.mts';

const CREDENTIAL = { id: 'librebor-credential', name: 'LibreBOR API' };
const EXAMPLE_FILES_PATH = '/home/node/.n8n-files/';
const queueMode = process.argv.includes('--queue');

function step(message: string) {
	console.log(`\n> ${message}`);
}

async function credentialData(): Promise<{ data: Record<string, string>; simulator?: Simulator }> {
	const { LIBREBOR_USER, LIBREBOR_PASSWORD, LIBREBOR_ENVIRONMENT, LIBREBOR_BASE_URL } = process.env;
	if (LIBREBOR_USER && LIBREBOR_PASSWORD) {
		step(`Using the LibreBOR account ${LIBREBOR_USER} (${LIBREBOR_ENVIRONMENT ?? 'production'})`);
		return {
			data: {
				environment: LIBREBOR_ENVIRONMENT ?? 'production',
				baseUrl: LIBREBOR_BASE_URL ?? '',
				username: LIBREBOR_USER,
				password: LIBREBOR_PASSWORD,
			},
		};
	}
	step('No LIBREBOR_USER/LIBREBOR_PASSWORD: starting the local LibreBOR simulator');
	const simulator = await startSimulator({ seed: true, documentProcessingMs: 5000 });
	return {
		simulator,
		data: { environment: 'custom', baseUrl: simulator.baseUrl, ...simulator.credentials },
	};
}

/** The examples as they are, with their file paths pointed at a folder this n8n may use. */
function exampleWorkflows(filesFolder: string): object[] {
	const examplesFolder = path.join(repoRoot, 'examples');
	return readdirSync(examplesFolder)
		.filter((file) => file.endsWith('.json'))
		.map((file, index) => {
			const text = readFileSync(path.join(examplesFolder, file), 'utf8').replaceAll(EXAMPLE_FILES_PATH, `${filesFolder}/`);
			return { id: `libreborExample${index + 1}`, active: false, ...JSON.parse(text) };
		});
}

async function main() {
	if (process.env.LIBREBOR_SKIP_BUILD !== '1') {
		step('Building the package');
		execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
	}
	const tarball = await packPackage(repoRoot, mkdtempSync(path.join(os.tmpdir(), 'librebor-pack-')));

	step('Preparing n8n 2.41.1 (installed once into ~/.cache/n8n-nodes-librebor; the first time takes a few minutes)');
	const filesFolder = mkdtempSync(path.join(os.tmpdir(), 'librebor-files-'));
	const settings = { N8N_RESTRICT_FILE_ACCESS_TO: filesFolder };
	// In queue mode the database is Postgres, which exists only once its cluster runs: start first, then import.
	const cluster = queueMode ? await startQueueCluster({ tarball, env: settings, log: step }) : undefined;
	const folder = cluster?.mainFolder ?? (await createN8nUserFolder({ env: settings }));
	if (!cluster) await installCommunityPackage(folder, tarball);

	const { data, simulator } = await credentialData();
	await importCredentials(folder, [{ ...CREDENTIAL, type: 'libreBorApi', data }]);
	mkdirSync(filesFolder, { recursive: true });
	copyFileSync(path.join(repoRoot, 'examples', 'suppliers.csv'), path.join(filesFolder, 'suppliers.csv'));
	await importWorkflows(folder, exampleWorkflows(filesFolder));

	if (!cluster) step('Starting n8n');
	const server = cluster?.main ?? (await startN8n(folder));
	await N8nRestClient.signIn(server);

	console.log(`
n8n is ready: ${server.baseUrl}
  Sign in:      ${testOwner.email} / ${testOwner.password}
  Credential:   "${CREDENTIAL.name}"${simulator ? ` -> simulator ${simulator.baseUrl}` : ''}
  Mode:         ${queueMode ? 'queue (main, 2 workers, Postgres, Redis)' : 'regular (one process, SQLite)'}
  Examples:     ${exampleWorkflows(filesFolder).length} workflows; files in ${filesFolder}${
		simulator
			? `
  New alert:    curl --cacert test/simulator/tls/ca.pem -X POST ${simulator.baseUrl.replace(/\/v2$/, '')}/__sim/alerts -d '{"nif":"B64717838"}'`
			: ''
	}
Press Ctrl-C to stop.`);

	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the simulator');
		if (cluster) await cluster.stop();
		else await server.stop();
		await simulator?.close();
		if (!cluster) await folder.remove();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
