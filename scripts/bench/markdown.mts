// What every section of BENCHMARKS.md writes with: its tables, counts and goal verdicts.

/** One row of the Goals table: what was aimed at, what was measured, and whether it was met. */
export interface Goal {
	goal: string;
	measured: string;
	met: boolean;
}

export const count = (value: number) => value.toLocaleString('en');
export const verdict = (met: boolean) => (met ? 'met' : '**missed**');

export function table(header: string[], rows: string[][]): string {
	return [
		`| ${header.join(' | ')} |`,
		`| ${header.map(() => '---').join(' | ')} |`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
	].join('\n');
}
