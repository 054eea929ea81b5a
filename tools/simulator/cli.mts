// Runs a seeded simulator on fixed ports until interrupted: the local sandbox and demo server.
//   node tools/simulator/cli.mts
// Environment: LIBREBOR_SIM_PORT (8443), LIBREBOR_SIM_DOWNLOAD_PORT (8444), LIBREBOR_SIM_HOST (127.0.0.1),
// LIBREBOR_SIM_USER, LIBREBOR_SIM_PASSWORD, LIBREBOR_SIM_LATENCY_MS, LIBREBOR_SIM_PROCESSING_MS.
import { startSimulator } from './simulator.mts';

function numberFromEnv(name: string, fallback: number): number {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isFinite(value) || value < 0)
		throw new Error(`${name} must be a non-negative number, got "${raw}"`);
	return value;
}

async function main(): Promise<void> {
	const simulator = await startSimulator({
		seed: true,
		host: process.env.LIBREBOR_SIM_HOST || undefined,
		port: numberFromEnv('LIBREBOR_SIM_PORT', 8443),
		downloadPort: numberFromEnv('LIBREBOR_SIM_DOWNLOAD_PORT', 8444),
		username: process.env.LIBREBOR_SIM_USER || undefined,
		password: process.env.LIBREBOR_SIM_PASSWORD || undefined,
		latencyMs: numberFromEnv('LIBREBOR_SIM_LATENCY_MS', 0),
		documentProcessingMs: numberFromEnv('LIBREBOR_SIM_PROCESSING_MS', 5000),
	});
	const controlOrigin = simulator.baseUrl.replace(/\/v2$/, '');
	console.log(`LibreBOR simulator listening
  Base URL:   ${simulator.baseUrl}
  Username:   ${simulator.credentials.username}
  Password:   ${simulator.credentials.password}
  Files:      ${simulator.downloadOrigin}
  Control:    ${controlOrigin}/__sim/state (GET), ${controlOrigin}/__sim/alerts (POST)
Clients must trust tools/simulator/tls/ca.pem (NODE_EXTRA_CA_CERTS). Ctrl+C stops it.`);

	const stop = (signal: string) => {
		console.log(`\n${signal} received, stopping the simulator`);
		simulator.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
