// Processes a test starts that must not outlive it. A set-up that runs past its time limit never
// returns what it started, so nothing would stop it, and an n8n left running loads every test
// after it. When this process ends (it exits, or the test runner stops it with SIGTERM or
// SIGINT, unless the process handles that signal itself), every process registered here that
// still runs is killed, with its process group when it leads one (n8n and its task runner).
import type { ChildProcess } from 'node:child_process';

const running = new Map<ChildProcess, { group: boolean }>();

function killRunning(): void {
	for (const [child, { group }] of running) {
		if (child.pid === undefined) continue;
		try {
			process.kill(group ? -child.pid : child.pid, 'SIGKILL');
		} catch {
			// Already gone.
		}
	}
}

function endOn(signal: NodeJS.Signals): void {
	const listener = () => {
		// A process that handles the signal itself (npm start) stops what it started its own way.
		if (process.listenerCount(signal) > 1) return;
		killRunning();
		process.removeListener(signal, listener);
		// Listened to no more, the signal now ends this process as it would have.
		process.kill(process.pid, signal);
	};
	process.on(signal, listener);
}

process.once('exit', killRunning);
endOn('SIGTERM');
endOn('SIGINT');

/** Kills `child` (its process group with `group`) if this process ends while it still runs. */
export function stopWithThisProcess(child: ChildProcess, { group = false } = {}): void {
	running.set(child, { group });
	child.once('exit', () => running.delete(child));
}
