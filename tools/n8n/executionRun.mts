import type { IBinaryData, IDataObject, IPairedItemData } from 'n8n-workflow';

/** An item as n8n stores it in a run (JSON form). */
export interface RunItem {
	json: IDataObject;
	binary?: Record<string, IBinaryData>;
	pairedItem?: IPairedItemData | IPairedItemData[] | number;
	error?: unknown;
}

/** One run of one node (n8n's ITaskData, JSON form). */
export interface NodeRun {
	startTime?: number;
	executionTime?: number;
	executionStatus?: string;
	data?: { main?: Array<RunItem[] | null> };
	error?: { message?: string; description?: string; name?: string; [key: string]: unknown };
	source?: unknown;
}

/** A whole workflow run (n8n's IRun, JSON form), as `n8n execute` prints it and executions store it. */
export interface ExecutionRun {
	status?: string;
	mode?: string;
	finished?: boolean;
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			lastNodeExecuted?: string;
			error?: { message?: string; description?: string; name?: string; [key: string]: unknown };
		};
		[key: string]: unknown;
	};
	[key: string]: unknown;
}

/**
 * Finds the run JSON in the output of `n8n execute`: n8n may print log lines before and after it.
 * The run is printed indented, so it starts with a line `{` and ends with the next line `}`.
 */
export function parseRunOutput(stdout: string): ExecutionRun | undefined {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line.trimEnd() === '{');
	if (start === -1) return undefined;
	const end = lines.findIndex((line, index) => index > start && line.trimEnd() === '}');
	if (end === -1) return undefined;
	try {
		const parsed = JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutionRun;
		return parsed?.data?.resultData ? parsed : undefined;
	} catch {
		return undefined;
	}
}

/** The items a node put on one of its outputs in one of its runs. */
export function nodeOutputItems(
	run: ExecutionRun,
	nodeName: string,
	{ runIndex = 0, output = 0 }: { runIndex?: number; output?: number } = {},
): RunItem[] {
	const nodeRuns = run.data.resultData.runData[nodeName];
	if (!nodeRuns) {
		const ran = Object.keys(run.data.resultData.runData).join(', ');
		throw new Error(`Node "${nodeName}" did not run (nodes that ran: ${ran || 'none'})`);
	}
	return nodeRuns[runIndex]?.data?.main?.[output] ?? [];
}

/** The `json` of the items a node put on its first output. */
export function nodeOutputJson(run: ExecutionRun, nodeName: string, runIndex = 0): IDataObject[] {
	return nodeOutputItems(run, nodeName, { runIndex }).map((item) => item.json);
}

/** The error a node's run ended with, if any. */
export function nodeError(run: ExecutionRun, nodeName: string, runIndex = 0): NodeRun['error'] {
	return run.data.resultData.runData[nodeName]?.[runIndex]?.error;
}
