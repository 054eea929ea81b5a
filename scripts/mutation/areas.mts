// Mutation testing one area at a time: the shipped modules of one part of the nodes, and the engine
// tests that pin them. A mutant runs only the tests that cover it, but a module every request
// passes through (the pacer, the transport) is covered by nearly every test: run against the whole
// suite, each of its surviving mutants costs minutes. Each area's tests are the ones written about
// its modules, so that an area runs in well under an hour on a 2-core machine.
//
// `LIBREBOR_MUTATION_AREA=transport npm run test:mutation` runs one area (stryker.config.mjs and
// vitest.mutation.config.mts both read it); without it, every area, against every area's tests.
// test/release/mutationAreas.test.mts checks that every module Stryker may mutate is in one area.

import { globSync } from 'node:fs';

export interface MutationArea {
	/** The modules, as Stryker globs below the repository root. */
	mutate: string[];
	/** The test files below test/, without `.test.mts`. */
	tests: string[];
	/**
	 * Whether the nodes' waits take half their time (test/support/shortSettle.mts): the order
	 * path's one-second settle pause per order would otherwise make its mutants time out; the
	 * pacing tests measure real waits against a limit.
	 */
	halvedWaits?: boolean;
}

/** Field declarations: no logic to mutate. Left out of every area. */
export const DECLARATIONS = [
	'nodes/LibreBor/descriptions/**',
	'nodes/**/*.node.ts',
	'nodes/**/node.type.ts',
	'nodes/**/index.ts',
	'nodes/LibreBor/trigger/description.ts',
];

export const MUTATION_AREAS: Record<string, MutationArea> = {
	transport: {
		mutate: [
			'nodes/LibreBor/transport/**/*.ts',
			'!nodes/LibreBor/transport/account.ts',
			'credentials/**/*.ts',
			'nodes/LibreBor/run/cancellation.ts',
			'nodes/LibreBor/time/clock.ts',
			'nodes/LibreBor/transport/fileName.ts',
		],
		// With the tests of other areas that read what the transport makes: the error of a spent
		// quota (hourlyQuota), a throttle the trigger skips (quota, failures), an order's lost answer,
		// the account a run learns limits for (learnedLimits), an unfollow that may have been done, a
		// stopped run's queued retry (validation), requests queued when the time budget ran out (pacing),
		// downloads held to Parallel Requests by the pacer (documentWaits), an order stopped while it
		// waited for its turn (executionsAtOnce).
		tests: [
			'foundation/clock',
			'foundation/credential',
			'foundation/hostileAnswers',
			'foundation/redirects',
			'foundation/retries',
			'foundation/transferGuard',
			'foundation/answers',
			'foundation/validation',
			'actions/documentWaits',
			'actions/downloadAnswers',
			'actions/downloadLimits',
			'actions/orderAnswers',
			'actions/watchlist',
			// A Sync stopped after a 5xx its retry did not follow (retryLoop.ts's unsure tries), and a
			// picker's throttle (errors.ts).
			'actions/watchlistSync',
			'actions/registry',
			'pacing/executionsAtOnce',
			'pacing/hourlyQuota',
			'pacing/learnedLimits',
			'pacing/pacing',
			'trigger/failures',
			'trigger/quota',
		],
	},
	pacing: {
		mutate: [
			'nodes/LibreBor/pacing/accountPace.ts',
			'nodes/LibreBor/pacing/bucketRefill.ts',
			'nodes/LibreBor/run/concurrency.ts',
			'nodes/LibreBor/pacing/inFlightLimit.ts',
			'nodes/LibreBor/run/itemRunner.ts',
			'nodes/LibreBor/run/nodeErrors.ts',
			'nodes/LibreBor/pacing/learnedLimits.ts',
			'nodes/LibreBor/pacing/limitModel.ts',
			'nodes/LibreBor/run/nodeRun.ts',
			'nodes/LibreBor/pacing/pacer.ts',
			'nodes/LibreBor/pacing/startWindow.ts',
			'nodes/LibreBor/pacing/windowProbe.ts',
			'nodes/LibreBor/pacing/windowShare.ts',
			'nodes/LibreBor/transport/account.ts',
		],
		tests: [
			'pacing/executionsAtOnce',
			'pacing/hourlyQuota',
			'pacing/learnedLimits',
			'pacing/limitMemory',
			'pacing/limitModel',
			'pacing/pacer',
			'pacing/pacing',
			'pacing/shapes',
			'foundation/retries',
			'trigger/quota',
			// Where an item's failure becomes its own error item or the run's error (itemRunner.ts):
			// bad input under Continue On Fail, and one watch-list read shared by several items.
			'foundation/validation',
			'actions/expressionOptions',
			'actions/watchlist',
			// The account every order is kept under, hashed (transport/account.ts's accountOf).
			'actions/orderAccounts',
		],
	},
	actions: {
		mutate: [
			'nodes/LibreBor/actions/*.ts',
			'nodes/LibreBor/actions/alert/**/*.ts',
			'nodes/LibreBor/actions/watchlist/**/*.ts',
			'nodes/LibreBor/actions/company/**/*.ts',
			'nodes/LibreBor/actions/person/**/*.ts',
			'nodes/LibreBor/actions/nif/**/*.ts',
			'nodes/LibreBor/api/alerts.ts',
			'nodes/LibreBor/api/registry.ts',
			'nodes/LibreBor/api/watchlist.ts',
			'nodes/LibreBor/api/registryPaging.ts',
			'nodes/LibreBor/methods/**/*.ts',
			'nodes/LibreBor/alerts/actCategories.ts',
			'nodes/LibreBor/alerts/alertFilter.ts',
			'nodes/LibreBor/alerts/alert.ts',
			'nodes/LibreBor/alerts/categoryFilter.ts',
			'nodes/LibreBor/parameters/*.ts',
			'nodes/LibreBor/identifiers/*.ts',
			'nodes/LibreBor/time/units.ts',
			// The records an alert gives and the filter's dates, shared with the trigger: Get Many's
			// tests reach what the trigger's do not (entries without categories, a wall time's zone).
			'nodes/LibreBor/alerts/alertRecords.ts',
			'nodes/LibreBor/time/zonedTime.ts',
		],
		tests: [
			'actions/actCategories',
			'actions/alert',
			'actions/alertFilters',
			'actions/companyLocator',
			'actions/expressionOptions',
			'actions/listSearch',
			'actions/nodeVersions',
			'actions/registry',
			'actions/watchlist',
			'actions/watchlistSync',
			'actions/zonedTime',
			'foundation/validation',
			// The trigger's tests read the unread list and mark alerts through api/alerts.ts, and
			// filter through alerts/alertFilter.ts as Get Many does.
			'trigger/failures',
			'trigger/filters',
			'trigger/listingGlitches',
			'trigger/manual',
		],
	},
	trigger: {
		mutate: ['nodes/LibreBor/trigger/**/*.ts', 'nodes/LibreBor/run/n8nInternals.ts'],
		tests: [
			'trigger/boundedState',
			'trigger/cappedList',
			'trigger/deduplicationKeys',
			'trigger/deliveryReceipts',
			'trigger/exactlyOnce',
			'trigger/executionPerAlert',
			'trigger/failures',
			'trigger/filters',
			'trigger/knownAlerts',
			'trigger/listingGlitches',
			'trigger/manual',
			'trigger/n8nInternals',
			'trigger/output',
			'trigger/quota',
			'trigger/rateLimit',
			'trigger/scheduler',
			'trigger/stops',
			'trigger/timeout',
			// Its on/off options set by expressions (settings.ts).
			'actions/expressionOptions',
		],
	},
	documents: {
		mutate: [
			'nodes/LibreBor/actions/document/**/*.ts',
			// The operations' fields are declarations: only the lines below are logic (the readers of
			// the options, and each operation's execute function).
			'!nodes/LibreBor/actions/document/order/order.operation.ts',
			'nodes/LibreBor/actions/document/order/order.operation.ts:143-179',
			'!nodes/LibreBor/actions/document/documentOptions.ts',
			'nodes/LibreBor/actions/document/documentOptions.ts:51-65',
			'nodes/LibreBor/actions/document/documentOptions.ts:81-100',
			'nodes/LibreBor/actions/document/documentOptions.ts:110-141',
			'!nodes/LibreBor/actions/document/download.operation.ts',
			'nodes/LibreBor/actions/document/download.operation.ts:40-92',
			'!nodes/LibreBor/actions/document/get.operation.ts',
			'nodes/LibreBor/actions/document/get.operation.ts:16-22',
			'nodes/LibreBor/api/documents.ts',
			'nodes/LibreBor/actions/document/pollGaps.ts',
		],
		tests: [
			// Its orders of a company picked by name read the NIFs ahead (orderSettings.ts).
			'actions/companyLocator',
			// An order's NIF refused before anything is sent, a person's too (orderSettings.ts).
			'foundation/validation',
			'actions/document',
			'actions/documentPolling',
			'actions/documentWaits',
			'actions/downloadLimits',
			'actions/orderAccounts',
			'actions/orderAnswers',
			'actions/orderBatch',
			'actions/orderLimits',
			'actions/orderMemory',
			'actions/orderRaces',
			// The output field's name and an order's on/off options, set by expressions.
			'actions/expressionOptions',
		],
		halvedWaits: true,
	},
};

/** The area of that name (by default the one LIBREBOR_MUTATION_AREA names), declarations left out. */
export function mutationArea(name = process.env.LIBREBOR_MUTATION_AREA): MutationArea | undefined {
	if (!name) return undefined;
	const area = MUTATION_AREAS[name];
	if (!area) {
		const names = Object.keys(MUTATION_AREAS).join(', ');
		throw new Error(`LIBREBOR_MUTATION_AREA=${name} is no area; the areas are ${names}`);
	}
	return { ...area, mutate: [...area.mutate, ...DECLARATIONS.map((glob) => `!${glob}`)] };
}

const matching = (pattern: string) => globSync(pattern.replace(/:\d+-\d+$/, ''));

/** The files a list of Stryker globs names, each `!` glob taking its files out again. */
export function filesOf(patterns: string[]): Set<string> {
	const files = new Set<string>();
	for (const pattern of patterns) {
		if (pattern.startsWith('!')) for (const file of matching(pattern.slice(1))) files.delete(file);
		else for (const file of matching(pattern)) files.add(file);
	}
	return files;
}

/** The line ranges of the files a list of globs mutates by parts only (`file:from-to`). */
export function lineRangesOf(patterns: string[]): Map<string, Array<[number, number]>> {
	const ranges = new Map<string, Array<[number, number]>>();
	for (const pattern of patterns) {
		const [, file, start, end] = /^([^!].*):(\d+)-(\d+)$/.exec(pattern) ?? [];
		if (file) ranges.set(file, [...(ranges.get(file) ?? []), [Number(start), Number(end)]]);
	}
	return ranges;
}

/** What the mutation tooling reads of an area's incremental file (Stryker's JSON report). */
export interface IncrementalReport {
	projectRoot?: string;
	files: Record<
		string,
		{ mutants: Array<{ location: { start: { line: number } }; statusReason?: string }> }
	>;
}

/**
 * Whether a mutant at that line of that file is the area's: the file is one of its modules and,
 * for a file mutated by line ranges, the line is inside one. Stryker's incremental file keeps the
 * mutants of an earlier run that are no longer (a module moved to another area, a range moved).
 */
export function ownsMutant(area: MutationArea): (file: string, line: number) => boolean {
	const files = filesOf(area.mutate);
	const ranges = lineRangesOf(area.mutate);
	return (file, line) =>
		files.has(file) &&
		(ranges.get(file)?.some(([start, end]) => line >= start && line <= end) ?? true);
}
