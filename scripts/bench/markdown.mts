// What every section of BENCHMARKS.md writes with: its tables, counts and goal verdicts.

/** One row of the Goals table: what was aimed at, what was measured, and whether it was met. */
export interface Goal {
	goal: string;
	measured: string;
	met: boolean;
}

export const count = (value: number) => value.toLocaleString('en');
/** Whole milliseconds, as the rate-limit sections give times. */
export const wholeMs = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
export const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
/** A ratio, "n/a" when it cannot be taken (a floor of 0, a time not measured). */
export const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a');
export const verdict = (met: boolean) => (met ? 'met' : '**missed**');

export function table(header: string[], rows: string[][]): string {
	return [
		`| ${header.join(' | ')} |`,
		`| ${header.map(() => '---').join(' | ')} |`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
	].join('\n');
}
