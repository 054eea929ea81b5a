import { DEFAULT_TIMEOUT_MS } from '../../nodes/LibreBor/transport/request.ts';
import type { CursorStorage } from '../../tools/engine/index.mts';
import type { RequestMatcher, Simulator } from '../../tools/simulator/index.mts';
import { alertIdsOf, CURSOR_STORAGES, triggerSession } from '../trigger/trigger-session.mts';
import { clearErrorProblems, errorText, secretProblems } from './checks.mts';
import {
	caseName,
	injectFault,
	modesOf,
	type FaultMode,
	type Lane,
	type LaneCase,
	type Problem,
} from './fault-case.mts';
import { FAULT_KINDS, SLOW_ANSWER, type FaultKind } from './fault-kinds.mts';

const LISTING: RequestMatcher = { method: 'GET', path: '/v2/alerts/' };
/** The listing and, when marking, the marks of the alerts emitted by the poll before. */
const EVERY_ALERTS_REQUEST: RequestMatcher = { method: 'GET', path: '/v2/alerts/*' };

interface TriggerVariant {
	markAsRead: boolean;
	cursorStorage: CursorStorage;
}

/** One poll of a scenario: the alerts that arrive before it, and whether the fault strikes it. */
interface Step {
	newAlerts: number;
	faulted: boolean;
}

/** Faults on two polls, alerts arriving before three of them, clean polls at the end to catch up. */
const SCENARIO: Step[] = [
	{ newAlerts: 2, faulted: true },
	{ newAlerts: 1, faulted: false },
	{ newAlerts: 1, faulted: true },
	{ newAlerts: 0, faulted: false },
	{ newAlerts: 0, faulted: false },
	{ newAlerts: 0, faulted: false },
];

function exactlyOnceProblems(added: string[], emitted: string[]): Problem[] {
	const counts = new Map<string, number>(added.map((id) => [id, 0]));
	const unknown = emitted.filter((id) => !counts.has(id));
	for (const id of emitted) if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
	const wrong = [...counts].filter(([, count]) => count !== 1);
	const problems: Problem[] = wrong.map(([id, count]) => ({
		check: 'exactly once',
		detail: `alert ${id} emitted ${count} times`,
	}));
	if (unknown.length > 0)
		problems.push({
			check: 'exactly once',
			detail: `${unknown.length} emitted alerts were never added`,
		});
	return problems;
}

/** Drives an active trigger through the scenario and checks that every alert came out once. */
async function runScenario(
	sim: Simulator,
	variant: TriggerVariant,
	kind: FaultKind,
	mode: FaultMode,
	steps: Step[],
) {
	const session = triggerSession(sim, {
		cursorStorage: variant.cursorStorage,
		parameters: { options: { markAsRead: variant.markAsRead } },
	});
	const target = variant.markAsRead ? EVERY_ALERTS_REQUEST : LISTING;
	const added: string[] = [];
	const emitted: string[] = [];
	const errors: unknown[] = [];
	let visible = '';
	let struck = 0;
	const poll = async (faulted: boolean) => {
		const fault = faulted ? injectFault(sim, target, kind, mode) : undefined;
		try {
			const output = await session.poll();
			emitted.push(...alertIdsOf(output));
			visible += JSON.stringify(output);
		} catch (error) {
			errors.push(error);
			visible += errorText(error);
		} finally {
			struck += fault?.hits ?? 0;
			sim.clearFaults();
		}
	};

	await poll(false);
	const problems: Problem[] = [];
	if (emitted.length > 0 || errors.length > 0)
		problems.push({ check: 'harness', detail: 'the activation poll did not start clean' });
	for (const step of steps) {
		added.push(...sim.state.addAlerts(step.newAlerts).map(({ id }) => id));
		await poll(step.faulted);
	}

	if (struck === 0) problems.push({ check: 'harness', detail: 'the fault never struck' });
	problems.push(...exactlyOnceProblems(added, emitted));
	problems.push(...errors.flatMap((error) => clearErrorProblems(error, kind.apiError)));
	if (kind.transient && mode === 'once' && errors.length > 0) {
		problems.push({
			check: 'recovers',
			detail: `${errors.length} polls failed: ${(errors[0] as Error).message}`,
		});
	}
	if (variant.markAsRead && sim.state.unreadAlerts().length > 0) {
		problems.push({
			check: 'marks every alert',
			detail: `${sim.state.unreadAlerts().length} alerts are still unread`,
		});
	}
	problems.push(...secretProblems(visible, sim.credentials.password));
	return problems;
}

const triggerCase = (variant: TriggerVariant, kind: FaultKind, mode: FaultMode): LaneCase => ({
	name: caseName(kind, mode),
	run: async (sim) => await runScenario(sim, variant, kind, mode, SCENARIO),
});

const variantName = ({ markAsRead, cursorStorage }: TriggerVariant) =>
	`LibreBOR Trigger${markAsRead ? ', marking alerts as read' : ''}, poll state kept as ${cursorStorage}`;

const variants: TriggerVariant[] = [false, true].flatMap((markAsRead) =>
	CURSOR_STORAGES.map((cursorStorage) => ({ markAsRead, cursorStorage })),
);

/**
 * The trigger has no timeout option: its requests wait the transport's default. A slow answer
 * past it is tried once, on one poll, which alone takes that long.
 */
const slowPastTheDefaultTimeout = (): Lane => {
	const kind: FaultKind = {
		...SLOW_ANSWER,
		name: `${SLOW_ANSWER.name} (${DEFAULT_TIMEOUT_MS / 1000} s)`,
		fault: { ...SLOW_ANSWER.fault, delayMs: DEFAULT_TIMEOUT_MS + 1000 },
	};
	const variant: TriggerVariant = { markAsRead: false, cursorStorage: 'static-data' };
	const steps = [SCENARIO[0], SCENARIO[1], SCENARIO[3]];
	return {
		name: `${variantName(variant)}, its default timeout`,
		cases: [
			{
				name: caseName(kind, 'once'),
				run: async (sim) => await runScenario(sim, variant, kind, 'once', steps),
			},
		],
	};
};

/**
 * A listing that answers 200 with nothing in it (maintenance, a glitch) while alerts are unread.
 * Were the trigger to forget what it emitted, the next full listing would emit it again: in a
 * Trigger -> Order workflow, a second paid order.
 */
const EMPTY_LISTING: FaultKind = {
	name: 'empty listing (200, [])',
	fault: { status: 200, body: '[]', contentType: 'application/json' },
	transient: true,
	apiError: /no error is expected/,
};

const listingGlitches = (): Lane => ({
	name: 'LibreBOR Trigger, a listing that comes back empty while alerts are unread',
	cases: CURSOR_STORAGES.flatMap((cursorStorage) =>
		modesOf(EMPTY_LISTING).map((mode) => ({
			name: `${caseName(EMPTY_LISTING, mode)}, poll state kept as ${cursorStorage}`,
			run: async (sim: Simulator) =>
				await runScenario(sim, { markAsRead: false, cursorStorage }, EMPTY_LISTING, mode, SCENARIO),
		})),
	),
});

export const TRIGGER_LANES: Lane[] = [
	...variants.map((variant) => ({
		name: variantName(variant),
		cases: FAULT_KINDS.filter((kind) => kind !== SLOW_ANSWER).flatMap((kind) =>
			modesOf(kind).map((mode) => triggerCase(variant, kind, mode)),
		),
	})),
	slowPastTheDefaultTimeout(),
	listingGlitches(),
];
