import { DEFAULT_TIMEOUT_MS } from '../../nodes/LibreBor/run/nodeRun.ts';
import type { CursorStorage } from '../../tools/engine/index.mts';
import type { RequestMatcher, Simulator } from '../../tools/simulator/index.mts';
import { alertIdsOf, CURSOR_STORAGES, triggerSession } from '../../tools/engine/index.mts';
import { clearErrorProblems, errorText, secretProblems } from './checks.mts';
import {
	caseName,
	injectFault,
	modesOf,
	problemIf,
	TARGETS,
	type FaultMode,
	type Lane,
	type LaneCase,
	type Problem,
} from './faultCase.mts';
import { FAULT_KINDS, SLOW_ANSWER, type FaultKind } from './faultKinds.mts';

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
	return [
		...[...counts]
			.filter(([, count]) => count !== 1)
			.flatMap(([id, count]) => problemIf('exactly once', `alert ${id} emitted ${count} times`)),
		...problemIf(
			'exactly once',
			unknown.length > 0 ? `${unknown.length} emitted alerts were never added` : undefined,
		),
	];
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
	const target = variant.markAsRead ? EVERY_ALERTS_REQUEST : TARGETS.alertListing;
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
	const cleanStart = emitted.length === 0 && errors.length === 0;
	for (const step of steps) {
		added.push(...sim.state.addAlerts(step.newAlerts).map(({ id }) => id));
		await poll(step.faulted);
	}

	const unread = sim.state.unreadAlerts().length;
	return [
		...problemIf('harness', cleanStart ? undefined : 'the activation poll did not start clean'),
		...problemIf('harness', struck === 0 ? 'the fault never struck' : undefined),
		...exactlyOnceProblems(added, emitted),
		...errors.flatMap((error) => clearErrorProblems(error, kind.apiError, kind.advice)),
		...problemIf(
			'recovers',
			kind.transient && mode === 'once' && errors.length > 0
				? `${errors.length} polls failed: ${(errors[0] as Error).message}`
				: undefined,
		),
		...problemIf(
			'marks every alert',
			variant.markAsRead && unread > 0 ? `${unread} alerts are still unread` : undefined,
		),
		...secretProblems(visible, sim.credentials.password),
	];
}

const triggerCase = (
	variant: TriggerVariant,
	kind: FaultKind,
	mode: FaultMode,
	{ steps = SCENARIO, name = caseName(kind, mode) } = {},
): LaneCase => ({ name, run: async (sim) => await runScenario(sim, variant, kind, mode, steps) });

const variantName = ({ markAsRead, cursorStorage }: TriggerVariant) =>
	`LibreBOR Trigger${markAsRead ? ', marking alerts as read' : ''}, poll state kept as ${cursorStorage}`;

const variants: TriggerVariant[] = [false, true].flatMap((markAsRead) =>
	CURSOR_STORAGES.map((cursorStorage) => ({ markAsRead, cursorStorage })),
);

/**
 * The trigger has no timeout option: its requests wait the transport's default. A slow answer
 * past it is tried once, on one poll, which alone takes that long.
 */
const SLOW_PAST_THE_DEFAULT_TIMEOUT: FaultKind = {
	...SLOW_ANSWER,
	name: `${SLOW_ANSWER.name} (${DEFAULT_TIMEOUT_MS / 1000} s)`,
	fault: { ...SLOW_ANSWER.fault, delayMs: DEFAULT_TIMEOUT_MS + 1000 },
};
const staticData: TriggerVariant = { markAsRead: false, cursorStorage: 'static-data' };

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
	advice: /no error is expected/,
};

export const TRIGGER_LANES: Lane[] = [
	...variants.map((variant) => ({
		name: variantName(variant),
		cases: FAULT_KINDS.filter((kind) => kind !== SLOW_ANSWER).flatMap((kind) =>
			modesOf(kind).map((mode) => triggerCase(variant, kind, mode)),
		),
	})),
	{
		name: `${variantName(staticData)}, its default timeout`,
		cases: [
			triggerCase(staticData, SLOW_PAST_THE_DEFAULT_TIMEOUT, 'once', {
				steps: [SCENARIO[0], SCENARIO[1], SCENARIO[3]],
			}),
		],
	},
	{
		name: 'LibreBOR Trigger, a listing that comes back empty while alerts are unread',
		cases: CURSOR_STORAGES.flatMap((cursorStorage) =>
			modesOf(EMPTY_LISTING).map((mode) =>
				triggerCase({ markAsRead: false, cursorStorage }, EMPTY_LISTING, mode, {
					name: `${caseName(EMPTY_LISTING, mode)}, poll state kept as ${cursorStorage}`,
				}),
			),
		),
	},
];
