// The per-file table of docs/testing.md from the areas' JSON reports (reports/mutation/<area>/):
// `node scripts/mutation/table.mts [area ...]` prints one row per file, named below nodes/LibreBor/,
// and, with --survivors, each surviving or uncovered mutant of the files below 100%.
import { existsSync, readFileSync } from 'node:fs';

import { MUTATION_AREAS } from './areas.mts';

interface Mutant {
	mutatorName: string;
	replacement?: string;
	status: string;
	location: { start: { line: number; column: number } };
}
interface Report {
	files: Record<string, { mutants: Mutant[] }>;
}

const args = process.argv.slice(2);
const listSurvivors = args.includes('--survivors');
const named = args.filter((arg) => arg in MUTATION_AREAS);
const areas = named.length > 0 ? named : Object.keys(MUTATION_AREAS);

const count = (mutants: Mutant[], status: string) =>
	mutants.filter((mutant) => mutant.status === status).length;
const shortName = (file: string) => file.replace(/^nodes\/LibreBor\//, '');

const rows: string[] = [];
const survivors: string[] = [];
for (const area of areas) {
	const path = `reports/mutation/${area}/mutation.json`;
	if (!existsSync(path)) continue;
	const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
	for (const [file, { mutants }] of Object.entries(report.files).sort()) {
		const killed = count(mutants, 'Killed');
		const timedOut = count(mutants, 'Timeout');
		const survived = count(mutants, 'Survived');
		const uncovered = count(mutants, 'NoCoverage');
		const valid = killed + timedOut + survived + uncovered;
		const score =
			valid === 0 ? 'no mutant' : `${(((killed + timedOut) / valid) * 100).toFixed(1)}%`;
		rows.push(
			`| \`${shortName(file)}\` | ${area} | ${score} | ${killed} | ${timedOut} | ${survived} | ${uncovered} |`,
		);
		for (const mutant of mutants.filter(
			(m) => m.status === 'Survived' || m.status === 'NoCoverage',
		)) {
			const { line, column } = mutant.location.start;
			const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80);
			survivors.push(
				`${file}:${line}:${column} ${mutant.status} ${mutant.mutatorName}: ${replacement}`,
			);
		}
	}
}
console.log(
	'| File (below `nodes/LibreBor/`) | Area | Score | Killed | Timed out | Survived | No coverage |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
console.log(rows.join('\n'));
if (listSurvivors) console.log(`\n${survivors.join('\n')}`);
