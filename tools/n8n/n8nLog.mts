import { existsSync, readFileSync } from 'node:fs';

/** One line of an n8n JSON log file. */
export interface N8nLogEntry {
	level: string;
	message: string;
	timestamp?: string;
	metadata?: Record<string, unknown>;
}

/** The entries of an n8n JSON log file (N8N_LOG_OUTPUT=file); none when it does not exist yet. */
export function readLogFile(file: string): N8nLogEntry[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => {
			try {
				return JSON.parse(line) as N8nLogEntry;
			} catch {
				// A line still being written.
				return { level: 'unknown', message: line };
			}
		});
}

/** Warnings and errors whose message or details mention `subject` (a package name, a node type...). */
export function problemsMentioning(
	entries: N8nLogEntry[],
	subject: string | RegExp,
): N8nLogEntry[] {
	return entries.filter(
		(entry) =>
			(entry.level === 'warn' || entry.level === 'error') &&
			mentions(JSON.stringify(entry), subject),
	);
}

/** Lines of console output that mention `subject`. */
export function linesMentioning(output: string, subject: string | RegExp): string[] {
	return output.split('\n').filter((line) => mentions(line, subject));
}

function mentions(text: string, subject: string | RegExp): boolean {
	return typeof subject === 'string' ? text.includes(subject) : subject.test(text);
}
