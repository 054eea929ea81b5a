import os from 'node:os';

export interface MachineInfo {
	date: string;
	cpus: number;
	cpuModel: string;
	memoryGiB: number;
	node: string;
	platform: string;
	loadAverage: string;
}

export function machineInfo(): MachineInfo {
	const cpus = os.cpus();
	return {
		date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
		cpus: cpus.length,
		cpuModel: cpus[0]?.model.trim() ?? 'unknown',
		memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		loadAverage: os.loadavg().map((load) => load.toFixed(2)).join(', '),
	};
}
