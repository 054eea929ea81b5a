// The mutation areas (scripts/mutation/areas.mts) cover every shipped module with logic once: a
// new module left out of them would never be mutated, one in two areas scored twice.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import {
	DECLARATIONS,
	filesOf,
	type IncrementalReport,
	lineRangesOf,
	MUTATION_AREAS,
	mutationArea,
	ownsMutant,
} from '../../scripts/mutation/areas.mts';

describe('mutation areas', () => {
	it('put every shipped module with logic in exactly one area, and no field declaration in any', () => {
		const declarations = filesOf(DECLARATIONS);
		const shipped = filesOf(['nodes/**/*.ts', 'credentials/**/*.ts']);
		const areasOf = new Map<string, string[]>();
		for (const name of Object.keys(MUTATION_AREAS)) {
			for (const file of filesOf(mutationArea(name)!.mutate)) {
				areasOf.set(file, [...(areasOf.get(file) ?? []), name]);
			}
		}
		const notOnce = [...shipped]
			.filter((file) => !declarations.has(file))
			.filter((file) => areasOf.get(file)?.length !== 1);
		expect(notOnce.map((file) => `${file}: ${areasOf.get(file)?.join(', ') ?? 'no area'}`)).toEqual(
			[],
		);
		expect([...areasOf.keys()].filter((file) => declarations.has(file))).toEqual([]);
	});

	it('mutate, of a file given by line ranges, every function and whole top-level blocks only', () => {
		const ranges = lineRangesOf(Object.values(MUTATION_AREAS).flatMap((area) => area.mutate));
		const misplaced: string[] = [];
		for (const [file, fileRanges] of ranges) {
			const lines = readFileSync(file, 'utf8').split('\n');
			const blank = (line: number) => (lines[line - 1] ?? '').trim() === '';
			for (const [start, end] of fileRanges) {
				if (!blank(start - 1) || blank(start) || !blank(end + 1) || blank(end))
					misplaced.push(`${file}:${start}-${end} does not span whole blocks`);
			}
			lines.forEach((text, index) => {
				const line = index + 1;
				const inRange = fileRanges.some(([start, end]) => line >= start && line <= end);
				if (/^(export )?(async )?function /.test(text) && !inRange)
					misplaced.push(`${file}:${line} is a function outside the ranges`);
			});
		}
		expect(ranges.size).toBeGreaterThan(0);
		expect(misplaced).toEqual([]);
	});

	it('commit incremental files holding only their own mutants, so that no row is scored twice', () => {
		const foreign: string[] = [];
		for (const name of Object.keys(MUTATION_AREAS)) {
			const file = `scripts/mutation/incremental/${name}.json`;
			if (!existsSync(file)) continue;
			const owns = ownsMutant(mutationArea(name)!);
			const report: IncrementalReport = JSON.parse(readFileSync(file, 'utf8'));
			for (const [module, result] of Object.entries(report.files)) {
				for (const { location } of result.mutants)
					if (!owns(module, location.start.line))
						foreign.push(`${name}: ${module}:${location.start.line}`);
			}
		}
		expect(foreign).toEqual([]);
	});

	it('commit incremental files that name no folder of the machine that ran them', () => {
		for (const name of Object.keys(MUTATION_AREAS)) {
			const file = `scripts/mutation/incremental/${name}.json`;
			if (!existsSync(file)) continue;
			const report: IncrementalReport = JSON.parse(readFileSync(file, 'utf8'));
			expect(report.projectRoot).toBeUndefined();
			// A stack trace in a status reason names files by their absolute paths.
			expect(readFileSync(file, 'utf8')).not.toMatch(/\/[\w.-]+(\/[\w.-]+)*\/node_modules\//);
		}
	});

	it('name test files that exist', () => {
		const tests = Object.values(MUTATION_AREAS).flatMap((area) => area.tests);
		const missing = tests.filter((name) => !existsSync(path.join('test', `${name}.test.mts`)));
		expect(missing).toEqual([]);
	});
});
