import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const staleLockMs = 10 * 60_000;

/**
 * Runs `work` once per test run, in whichever test file asks first; the files that ask while it
 * runs (in other workers) wait for it, and later ones reuse its result. `work` gets a folder of
 * its own for files that must outlive it; its result must survive JSON.
 *
 * Vitest runs every test file in a child process of its main process, so the main process
 * (its id and start time) names the run.
 */
export async function oncePerTestRun<T>(
	name: string,
	work: (folder: string) => Promise<T>,
): Promise<T> {
	const base = path.join(os.tmpdir(), 'n8n-nodes-librebor-e2e', name);
	const runFolder = path.join(base, `run-${testRunId()}`);
	const resultFile = path.join(runFolder, 'result.json');
	// One lock for all runs: two runs at once must not share what `work` changes (the build writes dist/).
	const lock = path.join(base, '.lock');
	await mkdir(base, { recursive: true });

	for (;;) {
		if (existsSync(resultFile)) return JSON.parse(await readFile(resultFile, 'utf8')) as T;
		if (await tryLock(lock)) {
			try {
				if (existsSync(resultFile)) continue;
				await removeFinishedRuns(base);
				await rm(runFolder, { recursive: true, force: true });
				await mkdir(runFolder, { recursive: true });
				const result = await work(runFolder);
				await writeFile(resultFile, JSON.stringify(result), 'utf8');
				return result;
			} finally {
				await rm(lock, { recursive: true, force: true });
			}
		}
		await delay(250);
	}
}

async function tryLock(lock: string): Promise<boolean> {
	try {
		await mkdir(lock);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
	}
	// A worker that was killed while holding the lock leaves it behind.
	const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
	if (age > staleLockMs) await rm(lock, { recursive: true, force: true });
	return false;
}

function testRunId(): string {
	return `${process.ppid}-${processStartTime(process.ppid)}`;
}

/** The start time of a process (Linux), so that a reused process id does not name an old run. */
function processStartTime(pid: number): string {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after the command name (which may hold spaces); the start time is field 22.
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '0';
	} catch {
		return '0';
	}
}

/** Removes the folders of runs whose main process has ended. */
async function removeFinishedRuns(base: string): Promise<void> {
	for (const entry of readdirSync(base)) {
		const pid = Number(/^run-(\d+)-/.exec(entry)?.[1]);
		if (pid && pid !== process.ppid && !isAlive(pid)) {
			await rm(path.join(base, entry), { recursive: true, force: true });
		}
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
