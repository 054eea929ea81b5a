// The test tooling's promise that a process a test started dies with the test's process, even
// when the set-up that started it never returned (its time limit ran out).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

const module = new URL('../../tools/n8n/stopWithThisProcess.mts', import.meta.url).pathname;

/** A Node process that starts a `sleep` in a group of its own, registered, and prints its pid. */
async function startOwner(ending: string) {
	const script = `
		import { spawn } from 'node:child_process';
		import { stopWithThisProcess } from ${JSON.stringify(module)};
		const sleeper = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
		stopWithThisProcess(sleeper, { group: true });
		console.log(sleeper.pid);
		${ending}`;
	const owner = spawn(process.execPath, ['--input-type=module', '-e', script], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [line] = (await once(owner.stdout, 'data')) as [Buffer];
	return { owner, sleeperPid: Number(line.toString().trim()) };
}

const isRunning = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

describe('a process a test started', () => {
	it.each([
		[
			'is stopped with the SIGTERM the test runner ends a worker with',
			'setInterval(() => {}, 1000);',
			true,
		],
		['is stopped when the test process exits', 'setTimeout(() => process.exit(0), 200);', false],
	])('%s', { timeout: 20_000 }, async (_, ending, terminate) => {
		const { owner, sleeperPid } = await startOwner(ending);
		expect(isRunning(sleeperPid)).toBe(true);
		const exited = once(owner, 'exit');
		if (terminate) owner.kill('SIGTERM');
		await exited;
		await expect.poll(() => isRunning(sleeperPid), { timeout: 5_000 }).toBe(false);
	});

	it(
		'is left to a process that handles SIGTERM itself, as npm start does',
		{ timeout: 20_000 },
		async () => {
			const { owner, sleeperPid } = await startOwner(
				"process.on('SIGTERM', () => console.log('handled')); setInterval(() => {}, 1000);",
			);
			try {
				const handled = once(owner.stdout, 'data');
				owner.kill('SIGTERM');
				await handled;
				// Long enough for a killed sleeper to be reaped (until then its pid still answers).
				await delay(1_000);
				expect(isRunning(sleeperPid)).toBe(true);
			} finally {
				owner.kill('SIGKILL');
				process.kill(-sleeperPid, 'SIGKILL');
			}
		},
	);
});
