import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { parseRunOutput, type ExecutionRun } from './executionRun.mts';
import { readLogFile, type N8nLogEntry } from './n8nLog.mts';
import { signalProcessGroup, spawnN8n, type SpawnN8nOptions } from './n8nProcess.mts';
import type { N8nUserFolder } from './n8nUserFolder.mts';

export interface N8nCommandResult {
	command: string;
	exitCode: number | null;
	stdout: string;
	stderr: string;
	/** The entries n8n logged to its JSON log file. */
	log: N8nLogEntry[];
}

export interface N8nCommandOptions extends SpawnN8nOptions {
	/** Kill the command after this long (default 3 minutes). */
	timeoutMs?: number;
	/** Errors n8n logs that do not mean the command failed (runN8nCommandOrThrow). */
	harmlessErrors?: RegExp;
}

/** Runs an n8n CLI command (`import:workflow`, `execute`, ...) on a user folder and waits for it. */
export async function runN8nCommand(
	folder: N8nUserFolder,
	args: string[],
	options: N8nCommandOptions = {},
): Promise<N8nCommandResult> {
	const { timeoutMs = 180_000, ...spawnOptions } = options;
	const started = await spawnN8n(folder, args, spawnOptions);
	const timer = setTimeout(() => signalProcessGroup(started.child, 'SIGKILL'), timeoutMs);
	try {
		const { code } = await started.exited;
		return {
			command: `n8n ${args.join(' ')}`,
			exitCode: code,
			stdout: started.output.stdout,
			stderr: started.output.stderr,
			log: readLogFile(started.logFile),
		};
	} finally {
		clearTimeout(timer);
	}
}

/** Like runN8nCommand, but throws with n8n's output unless the command succeeded. */
export async function runN8nCommandOrThrow(
	folder: N8nUserFolder,
	args: string[],
	options: N8nCommandOptions = {},
): Promise<N8nCommandResult> {
	const result = await runN8nCommand(folder, args, options);
	// Some commands report failures in the log and still exit with 0.
	const loggedError = result.log.find(
		(entry) => entry.level === 'error' && !options.harmlessErrors?.test(entry.message),
	);
	if (result.exitCode !== 0 || loggedError) {
		throw new Error(
			`${result.command} failed (exit code ${result.exitCode})\n${result.stdout}\n${result.stderr}`.trimEnd(),
		);
	}
	return result;
}

/** Imports credentials (objects with id, name, type and plain `data`; n8n encrypts it). */
export async function importCredentials(
	folder: N8nUserFolder,
	credentials: object[],
): Promise<void> {
	const file = await writeJsonFile(folder, 'credentials', credentials);
	try {
		await runN8nCommandOrThrow(folder, ['import:credentials', `--input=${file}`]);
	} finally {
		await rm(file, { force: true }); // it holds the password in plain text
	}
}

/** Imports workflows (objects with id, name, nodes and connections). They are imported unpublished. */
export async function importWorkflows(folder: N8nUserFolder, workflows: object[]): Promise<void> {
	const file = await writeJsonFile(folder, 'workflows', workflows);
	try {
		await runN8nCommandOrThrow(folder, ['import:workflow', `--input=${file}`], {
			// n8n 2.0 imports them, but first logs that it cannot find each new workflow to remove its webhooks.
			harmlessErrors: /^Could not (find workflow\n|remove webhooks of workflow )/,
		});
	} finally {
		await rm(file, { force: true });
	}
}

export interface WorkflowExecution {
	/** Whether n8n reported the run as successful. */
	succeeded: boolean;
	/** The run with every node's output; present also when the workflow failed. */
	run?: ExecutionRun;
	result: N8nCommandResult;
}

/**
 * Runs a workflow once, from its Manual Trigger, with `n8n execute --id=<id> --rawOutput`
 * (execution mode `cli`). A failing workflow does not throw: check `succeeded` and the run.
 */
export async function executeWorkflow(
	folder: N8nUserFolder,
	workflowId: string,
	options: N8nCommandOptions = {},
): Promise<WorkflowExecution> {
	const result = await runN8nCommand(
		folder,
		['execute', `--id=${workflowId}`, '--rawOutput'],
		options,
	);
	const run = parseRunOutput(result.stdout);
	const succeeded = result.exitCode === 0 && run !== undefined && !run.data.resultData.error;
	return { succeeded, run, result };
}

let fileCount = 0;

async function writeJsonFile(
	folder: N8nUserFolder,
	kind: string,
	content: unknown,
): Promise<string> {
	fileCount += 1;
	const file = path.join(folder.root, `import-${kind}-${fileCount}.json`);
	await writeFile(file, JSON.stringify(content, null, 2), 'utf8');
	return file;
}
