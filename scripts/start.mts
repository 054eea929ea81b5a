// The main job, `npm start`: n8n's editor with this package installed, a LibreBOR credential and the
// example workflows, against a local LibreBOR simulator unless a real account is configured.
//
// Options (after `npm start --`):
//   --port <port>   the editor's port (default: N8N_PORT, else n8n's usual 5678)
//   --fresh         start over: delete the local n8n's data (workflows, credentials, executions) first
//   --queue         queue mode instead: a private Postgres and Redis (installed from Debian's packages when
//                   missing), the main process and two `n8n worker` processes, each with the package; its
//                   data is not kept
//
// Environment:
//   LIBREBOR_USER, LIBREBOR_PASSWORD  a real LibreBOR API account (otherwise the simulator is used)
//   LIBREBOR_ENVIRONMENT              production (default), sandbox or custom
//   LIBREBOR_BASE_URL                 the https base URL, with LIBREBOR_ENVIRONMENT=custom
//   LIBREBOR_DEV_FOLDER               where the local n8n keeps its data (default: .n8n-dev in the repository)
//   LIBREBOR_SKIP_BUILD=1             use dist/ as it is (tests that built it already)
import { execFileSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { installCommunityPackage, packPackage } from '../tools/n8n/communityPackage.mts';
import { isPortFree } from '../tools/n8n/freePort.mts';
import { recordInstalledPackage } from '../tools/n8n/installedPackageRecord.mts';
import { importCredentials, importWorkflows } from '../tools/n8n/n8nCli.mts';
import { ensureN8nInstalled } from '../tools/n8n/n8nInstallation.mts';
import { N8nRestClient, testOwner } from '../tools/n8n/n8nRestClient.mts';
import { startN8n } from '../tools/n8n/n8nServer.mts';
import { createN8nUserFolder } from '../tools/n8n/n8nUserFolder.mts';
import { startQueueCluster } from '../tools/n8n/queue/queueCluster.mts';
import { repoRoot } from '../tools/repoPaths.mts';
import { startSimulator, type Simulator } from '../tools/simulator/index.mts';

const CREDENTIAL = { id: 'librebor-credential', name: 'LibreBOR API' };
const EXAMPLE_FILES_PATH = '/home/node/.n8n-files/';
const PROGRESS_EVERY_MS = 10_000;

const { values: options } = parseArgs({
	options: {
		port: { type: 'string' },
		fresh: { type: 'boolean', default: false },
		queue: { type: 'boolean', default: false },
	},
});
const queueMode = options.queue;
const dataFolder = path.resolve(process.env.LIBREBOR_DEV_FOLDER ?? path.join(repoRoot, '.n8n-dev'));

function step(message: string) {
	console.log(`\n> ${message}`);
}

function editorPort(): number {
	const text = options.port ?? process.env.N8N_PORT ?? '5678';
	const port = Number(text);
	if (!Number.isInteger(port) || port < 1 || port > 65535) {
		throw new Error(
			`The editor's port must be a number from 1 to 65535, not "${text}" (--port or N8N_PORT).`,
		);
	}
	return port;
}

async function assertPortFree(port: number): Promise<void> {
	if (await isPortFree(port)) return;
	throw new Error(
		`Port ${port} is already in use, so the n8n editor cannot listen on it. Another n8n (or an earlier ` +
			`\`npm start\`) may be running: stop it, or choose another port with \`npm start -- --port ${port + 10}\` ` +
			`(or N8N_PORT=${port + 10}).`,
	);
}

/** Installs n8n the first time, saying what it does and for how long, at least every 10 seconds. */
async function prepareN8n(): Promise<void> {
	step(
		'Preparing n8n 2.41.1 (installed once into ~/.cache/n8n-nodes-librebor; the first time takes a few minutes)',
	);
	const started = Date.now();
	let current = 'checking the installed n8n';
	let lastPrinted = Date.now();
	const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
	const report = (message: string) => {
		console.log(`  ${message} (${elapsed()})`);
		lastPrinted = Date.now();
	};
	const ticker = setInterval(() => {
		if (Date.now() - lastPrinted >= PROGRESS_EVERY_MS - 100) report(`still ${current}`);
	}, 1000);
	try {
		await ensureN8nInstalled({
			onStep: (line) => {
				current = line.charAt(0).toLowerCase() + line.slice(1);
				report(line);
			},
		});
	} finally {
		clearInterval(ticker);
	}
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
			const text = readFileSync(path.join(examplesFolder, file), 'utf8').replaceAll(
				EXAMPLE_FILES_PATH,
				`${filesFolder}/`,
			);
			return { id: `libreborExample${index + 1}`, active: false, ...JSON.parse(text) };
		});
}

// Ctrl-C may come at any step: what has started by then is stopped, and nothing is left running.
const stopActions: Array<() => Promise<unknown>> = [];
let runningStep: Promise<unknown> = Promise.resolve();
let stopping = false;

/** Runs a step that Ctrl-C should let finish (n8n in a process group of its own), noting how to undo it. */
async function guarded<T>(
	work: Promise<T>,
	stopAction?: (value: T) => () => Promise<unknown>,
): Promise<T> {
	const done = work.then((value) => {
		if (stopAction) stopActions.push(stopAction(value));
		return value;
	});
	runningStep = done.catch(() => undefined);
	const value = await done;
	if (stopping) await new Promise(() => {}); // stopEverything() exits
	return value;
}

async function stopEverything(): Promise<void> {
	if (stopping) return;
	stopping = true;
	console.log('\nStopping');
	await runningStep;
	for (const stopAction of stopActions.reverse()) await stopAction().catch(() => undefined);
	process.exit(0);
}

async function main() {
	process.on('SIGINT', () => void stopEverything());
	process.on('SIGTERM', () => void stopEverything());
	const port = editorPort();
	if (!queueMode) await assertPortFree(port);
	if (options.fresh && existsSync(dataFolder)) {
		step(`Starting over: deleting the local n8n's data in ${dataFolder}`);
		rmSync(dataFolder, { recursive: true, force: true });
	}
	// Temporary files of everything started from here (npm, n8n's uploads, Node's compile cache) stay
	// with the local n8n's data instead of piling up in the system's temp folder.
	const temporaryFolder = path.join(dataFolder, 'tmp');
	mkdirSync(temporaryFolder, { recursive: true });
	process.env.TMPDIR = temporaryFolder;
	if (process.env.LIBREBOR_SKIP_BUILD !== '1') {
		step('Building the package');
		execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
	}
	await prepareN8n();

	const examplesImported = path.join(dataFolder, '.examples-imported');
	const firstRun = !existsSync(examplesImported);
	const filesFolder = path.join(dataFolder, 'files');
	mkdirSync(filesFolder, { recursive: true });
	const packFolder = path.join(dataFolder, 'pack');
	mkdirSync(packFolder, { recursive: true });
	const tarball = await packPackage(repoRoot, packFolder);

	const settings = { N8N_RESTRICT_FILE_ACCESS_TO: filesFolder, TMPDIR: temporaryFolder };
	// In queue mode the database is Postgres, which exists only once its cluster runs: start first, then import.
	const cluster = queueMode
		? await guarded(
				startQueueCluster({ tarball, env: settings, log: step }),
				(started) => async () => await started.stop(),
			)
		: undefined;
	const folder =
		cluster?.mainFolder ?? (await createN8nUserFolder({ root: dataFolder, env: settings }));
	if (!cluster) {
		step(`Installing the package into the local n8n, kept in ${dataFolder}`);
		await guarded(installCommunityPackage(folder, tarball));
	}
	rmSync(packFolder, { recursive: true, force: true });

	const { data, simulator } = await guarded(
		credentialData(),
		(credential) => async () => await credential.simulator?.close(),
	);
	// The simulator's address changes with every run, so the credential is written every time.
	await guarded(importCredentials(folder, [{ ...CREDENTIAL, type: 'libreBorApi', data }]));
	copyFileSync(
		path.join(repoRoot, 'examples', 'suppliers.csv'),
		path.join(filesFolder, 'suppliers.csv'),
	);
	const examples = exampleWorkflows(filesFolder);
	// Imported into a new n8n only: importing again would overwrite what the user changed in them.
	if (cluster || firstRun) await guarded(importWorkflows(folder, examples));
	if (!cluster) writeFileSync(examplesImported, `${new Date().toISOString()}\n`);
	if (!cluster) recordInstalledPackage(folder, repoRoot);

	let server = cluster?.main;
	if (!server) {
		step('Starting n8n');
		await assertPortFree(port);
		server = await guarded(
			startN8n(folder, { port }),
			(started) => async () => await started.stop(),
		);
	}
	await N8nRestClient.signIn(server);

	console.log(`
n8n is ready: ${server.baseUrl}
  Sign in:      ${testOwner.email} / ${testOwner.password}
  Credential:   "${CREDENTIAL.name}"${simulator ? ` -> simulator ${simulator.baseUrl}` : ''}
  Mode:         ${queueMode ? 'queue (main, 2 workers, Postgres, Redis)' : 'regular (one process, SQLite)'}
  Data:         ${cluster ? 'not kept (queue mode)' : `${dataFolder} (kept between runs; \`npm start -- --fresh\` starts over)`}
  Examples:     ${firstRun || cluster ? `${examples.length} workflows imported` : 'imported on the first run'}; files in ${filesFolder}${
		simulator
			? `
  New alert:    curl --cacert tools/simulator/tls/ca.pem -X POST ${simulator.baseUrl.replace(/\/v2$/, '')}/__sim/alerts -d '{"nif":"B64717838"}'`
			: ''
	}
Press Ctrl-C to stop.`);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? `\n${error.message}` : error);
	process.exit(1);
});
