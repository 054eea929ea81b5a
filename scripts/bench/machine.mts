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
		loadAverage: os
			.loadavg()
			.map((load) => load.toFixed(2))
			.join(', '),
	};
}

/** Samples the 1-minute load average every 30 s until stopped: the machine is shared, and its load moves. */
export function sampleLoad(): () => { min: number; max: number; samples: number } {
	const samples = [os.loadavg()[0]];
	const timer = setInterval(() => samples.push(os.loadavg()[0]), 30_000);
	return () => {
		clearInterval(timer);
		samples.push(os.loadavg()[0]);
		return { min: Math.min(...samples), max: Math.max(...samples), samples: samples.length };
	};
}
