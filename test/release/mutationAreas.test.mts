// The mutation areas (scripts/mutation/areas.mts) cover every shipped module with logic once: a
// new module left out of them would never be mutated, one in two areas scored twice.
import { existsSync, globSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { DECLARATIONS, MUTATION_AREAS, mutationArea } from '../../scripts/mutation/areas.mts';

const matching = (pattern: string) => globSync(pattern.replace(/:\d+-\d+$/, ''));

function filesOf(patterns: string[]): Set<string> {
	const files = new Set<string>();
	for (const pattern of patterns) {
		if (pattern.startsWith('!')) for (const file of matching(pattern.slice(1))) files.delete(file);
		else for (const file of matching(pattern)) files.add(file);
	}
	return files;
}

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

	it('name test files that exist', () => {
		const tests = Object.values(MUTATION_AREAS).flatMap((area) => area.tests);
		const missing = tests.filter((name) => !existsSync(path.join('test', `${name}.test.mts`)));
		expect(missing).toEqual([]);
	});
});
