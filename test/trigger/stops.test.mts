import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { ExecutionFate } from '../../tools/engine/index.mts';
import {
	ALERTS_PATH,
	alertIdsOf,
	MARK_AS_READ,
	MARK_PATH,
	markedIds,
	mayRepeatAfterRestart,
	activatedSession,
	TRIGGER_KINDS,
	unreadIds,
	useSimulator,
	type PollSession,
	type TriggerSessionOptions,
} from './triggerSession.mts';

const sim = useSimulator();

/** The alert ids every execution n8n created carried, in order. */
const carriedIds = (session: PollSession): string[] =>
	session.executions.flatMap((execution: INodeExecutionData[][]) => alertIdsOf(execution));

/** Fails the test if an alert is marked read before an execution carried it. */
function refuseEarlyMarks(session: PollSession): string[] {
	const early: string[] = [];
	sim().onRequest(
		{ method: 'GET', path: `${MARK_PATH}*` },
		(request) => {
			const id = decodeURIComponent(request.path.slice(MARK_PATH.length, -1));
			if (!carriedIds(session).includes(id)) early.push(id);
		},
		Infinity,
	);
	return early;
}

/**
 * An active trigger whose state n8n has stored with an execution: with durable cursors n8n stores
 * nothing before (an activation poll that emits nothing commits nothing), and a restart then
 * takes a new baseline, a limit of n8n that docs/trigger.md names.
 */
async function storedSession(kind: TriggerSessionOptions, parameters = {}) {
	const session = await activatedSession(sim(), { ...kind, parameters });
	const first = sim().state.addAlert();
	expect(alertIdsOf(await session.poll())).toEqual([first.id]);
	return { session, first: first.id };
}

const addedIds = (count: number) =>
	sim()
		.state.addAlerts(count)
		.map(({ id }) => id);

/** The next emission meets this fate, the ones after it are created and finish. */
async function pollMeeting(session: PollSession, fate: ExecutionFate) {
	session.executionFate = fate;
	const emitted = alertIdsOf(await session.poll());
	session.executionFate = 'finishes';
	return emitted;
}

describe.each(TRIGGER_KINDS)(
	'LibreBOR Trigger, n8n stopped or failing around an emission (%s)',
	(_, kind) => {
		it('emits the alerts again after a restart when n8n stopped before creating their execution, and marks none before', async () => {
			const { session, first } = await storedSession(kind, MARK_AS_READ);
			const early = refuseEarlyMarks(session);
			const ids = addedIds(3);
			expect(await pollMeeting(session, 'neverCreated')).toEqual(ids);
			expect(carriedIds(session)).toEqual([first]);

			session.restart();
			expect(alertIdsOf(await session.poll())).toEqual(ids);
			for (let poll = 0; poll < 2; poll++) expect(await session.poll()).toBeNull();

			expect(carriedIds(session)).toEqual([first, ...ids]);
			expect(unreadIds(sim())).toEqual([]);
			expect(early).toEqual([]);
		});

		it('emits the alerts again at the next poll when n8n could not start their execution, also before it stored any state', async () => {
			const session = await activatedSession(sim(), { ...kind, parameters: MARK_AS_READ });
			const early = refuseEarlyMarks(session);
			const ids = addedIds(2);
			expect(await pollMeeting(session, 'refused')).toEqual(ids);

			expect(alertIdsOf(await session.poll())).toEqual(ids);
			for (let poll = 0; poll < 2; poll++) expect(await session.poll()).toBeNull();
			expect(carriedIds(session)).toEqual(ids);
			expect(unreadIds(sim())).toEqual([]);
			expect(early).toEqual([]);
		});

		it('repeats nothing when the poll after an emission fails: what n8n reported is still known at the next', async () => {
			const { session, first } = await storedSession(kind);
			const ids = addedIds(2);
			expect(alertIdsOf(await session.poll())).toEqual(ids);

			sim().injectFault({ method: 'GET', path: ALERTS_PATH, status: 500, times: 4, retryAfter: 0 });
			await expect(session.poll()).rejects.toThrow('(500)');
			for (let poll = 0; poll < 2; poll++) expect(await session.poll()).toBeNull();
			expect(carriedIds(session)).toEqual([first, ...ids]);
		});

		it('counts a cancelled execution as carrying its alerts: marked, not emitted again', async () => {
			const { session, first } = await storedSession(kind, MARK_AS_READ);
			const ids = addedIds(2);
			expect(await pollMeeting(session, 'cancelled')).toEqual(ids);

			for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
			expect(carriedIds(session)).toEqual([first, ...ids]);
			expect(unreadIds(sim())).toEqual([]);
		});

		it('without Mark as Read, emits the alerts again after a restart when their execution was never created', async () => {
			const { session, first } = await storedSession(kind);
			const ids = addedIds(2);
			expect(await pollMeeting(session, 'neverCreated')).toEqual(ids);

			session.restart();
			expect(alertIdsOf(await session.poll())).toEqual(ids);
			for (let poll = 0; poll < 3; poll++) expect(await session.poll()).toBeNull();
			expect(carriedIds(session)).toEqual([first, ...ids]);
			expect(markedIds(sim())).toEqual([]);
		});
	},
);

describe.each(TRIGGER_KINDS.filter(([, kind]) => kind.cursorStorage !== 'durable-cursor'))(
	'LibreBOR Trigger, an execution still running (%s)',
	(_, kind) => {
		it('marks the alerts of a running execution only once it has finished, and never emits them again', async () => {
			const session = await activatedSession(sim(), { ...kind, parameters: MARK_AS_READ });
			const ids = addedIds(2);
			expect(await pollMeeting(session, 'keepsRunning')).toEqual(ids);

			for (let poll = 0; poll < 2; poll++) expect(await session.poll()).toBeNull();
			expect(markedIds(sim())).toEqual([]);

			session.finishRunningExecutions();
			for (let poll = 0; poll < 2; poll++) expect(await session.poll()).toBeNull();
			expect(new Set(markedIds(sim()))).toEqual(new Set(ids));
			expect(carriedIds(session)).toEqual(ids);
		});

		it('at a restart, emits the alerts of an execution still running again in version 1 only, and marks them', async () => {
			const session = await activatedSession(sim(), { ...kind, parameters: MARK_AS_READ });
			const ids = addedIds(2);
			expect(await pollMeeting(session, 'keepsRunning')).toEqual(ids);

			session.restart();
			expect(alertIdsOf(await session.poll())).toEqual(mayRepeatAfterRestart(kind) ? ids : []);
			expect(await session.poll()).toBeNull();
			expect(unreadIds(sim())).toEqual([]);
			expect(carriedIds(session)).toEqual(mayRepeatAfterRestart(kind) ? [...ids, ...ids] : ids);
		});
	},
);

/** What a poll's emission meets, in turn: n8n stops (and restarts) twice in five emissions. */
const FATES: ExecutionFate[] = ['finishes', 'neverCreated', 'keepsRunning', 'refused', 'finishes'];

describe.each(
	TRIGGER_KINDS.flatMap(
		([name, kind]) =>
			[
				[name, true, kind],
				[name, false, kind],
			] as const,
	),
)(
	'LibreBOR Trigger, bursts of alerts with n8n stopping around emissions (%s, Mark as Read %s)',
	(_, markAsRead, kind) => {
		it('in the end carries every alert, marks none before, and repeats only what a restart could not confirm', async () => {
			const parameters = markAsRead ? MARK_AS_READ : {};
			const { session, first } = await storedSession(kind, parameters);
			const early = refuseEarlyMarks(session);
			const added = [first];
			// Alerts of executions whose end no saved state records yet: a restart may repeat them.
			let unconfirmed = new Set<string>();
			let running = new Set<string>();
			const mayRepeat = new Set<string>();
			for (let burst = 0; burst < 3; burst++) {
				for (const fate of FATES) {
					added.push(...addedIds(40));
					const emitted = await pollMeeting(session, fate);
					const carried = fate === 'finishes' || fate === 'keepsRunning' ? emitted : [];
					// n8n saved this poll's state: what it says of earlier executions is now stored.
					unconfirmed = new Set([...running, ...carried]);
					if (fate === 'keepsRunning') running = new Set([...running, ...carried]);
					if (fate !== 'neverCreated') continue;
					for (const id of unconfirmed) mayRepeat.add(id);
					session.restart();
					running = new Set();
				}
				session.finishRunningExecutions();
			}
			for (let poll = 0; poll < 3; poll++) await session.poll();

			const carried = carriedIds(session);
			expect(new Set(carried)).toEqual(new Set(added));
			const repeated = carried.filter((id, index) => carried.indexOf(id) !== index);
			if (mayRepeatAfterRestart(kind))
				expect(repeated.filter((id) => !mayRepeat.has(id))).toEqual([]);
			else expect(repeated).toEqual([]);
			expect(early).toEqual([]);
			if (markAsRead) expect(unreadIds(sim())).toEqual([]);
		});
	},
);

describe.each(TRIGGER_KINDS)(
	'LibreBOR Trigger, more alerts waiting for their executions than it remembers (%s)',
	(_, kind) => {
		it('marks every alert once its execution has ended, also those it forgot meanwhile', async () => {
			const { session, first } = await storedSession(kind, MARK_AS_READ);
			const added = [first];
			for (let burst = 0; burst < 4; burst++) {
				added.push(...addedIds(300));
				await pollMeeting(session, 'keepsRunning');
			}
			session.finishRunningExecutions();
			for (let poll = 0; poll < 3; poll++) await session.poll();
			expect(new Set(carriedIds(session))).toEqual(new Set(added));
			expect(unreadIds(sim())).toEqual([]);
		});
	},
);
