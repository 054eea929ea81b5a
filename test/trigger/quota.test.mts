// The trigger under an hourly quota smaller than its polls: the simulator counts the quota on a
// clock of its own (ManualClock), so that an hour passes when the test says; the node's time is real.
import { describe, expect, it } from 'vitest';

import { recordWarnings } from '../../tools/engine/index.mts';
import { ManualClock, type RateLimit } from '../../tools/simulator/index.mts';
import {
	ALERTS_PATH,
	alertIdsOf,
	TRIGGER_KINDS,
	MARK_AS_READ,
	triggerSession,
	unreadIds,
	useSimulator,
	type PollSession,
} from './triggerSession.mts';

const HOUR_MS = 3_600_000;
const clock = new ManualClock();
// A new simulator for each test: a new account, whose limit no earlier test taught the node.
const sim = useSimulator({ clock }, { perTest: true });

/** Django REST framework's hourly throttle: 429 with a Retry-After of up to an hour. */
const drfHourly = (requests: number): RateLimit => ({
	shape: 'sliding-log-drf',
	requests,
	windowMs: HOUR_MS,
});

/** Polls, recording what the node logged as warnings. */
async function pollRecordingWarnings(session: PollSession) {
	const warnings = recordWarnings();
	try {
		return { output: await session.poll(), warnings: warnings.messages };
	} finally {
		warnings.stop();
	}
}

describe.each(TRIGGER_KINDS)('LibreBOR Trigger under an hourly quota (%s)', (_, kind) => {
	it('skips a poll quietly once the quota is spent, and emits what it missed, once, when the quota is back', async () => {
		sim().traffic.rateLimit = drfHourly(2);
		const session = triggerSession(sim(), { ...kind });
		expect(await session.poll()).toBeNull();
		const first = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([first.id]);

		const missed = sim().state.addAlert();
		for (let poll = 0; poll < 3; poll++) {
			const { output, warnings } = await pollRecordingWarnings(session);
			expect(output).toBeNull();
			expect(warnings).toEqual([
				expect.stringMatching(
					/^LibreBOR Trigger skipped a poll: LibreBOR kept rate limiting the requests \(429\).*the next poll tries again/,
				),
			]);
		}
		// One refused listing per poll: the poll did not wait the hour out.
		expect(sim().traffic.throttled).toBe(3);

		clock.advance(HOUR_MS);
		const later = sim().state.addAlert();
		expect(alertIdsOf(await session.poll())).toEqual([missed.id, later.id]);
		expect(await session.poll()).toBeNull();
	});

	it('marks the alerts it could not mark while the quota was spent, and emits none of them again', async () => {
		sim().traffic.rateLimit = drfHourly(2);
		const session = triggerSession(sim(), { ...kind, parameters: MARK_AS_READ });
		expect(await session.poll()).toBeNull();
		const alerts = sim().state.addAlerts(2);
		// The listing spends the quota's second request: the marks must wait for the next hour.
		expect(alertIdsOf(await session.poll())).toEqual(alerts.map(({ id }) => id));

		const { output, warnings } = await pollRecordingWarnings(session);
		expect(output).toBeNull();
		expect(warnings.at(-1)).toMatch(/^LibreBOR Trigger skipped a poll/);
		expect(unreadIds(sim()).sort()).toEqual(alerts.map(({ id }) => id).sort());

		clock.advance(HOUR_MS);
		expect(await session.poll()).toBeNull();
		expect(unreadIds(sim())).toEqual([]);
		expect(await session.poll()).toBeNull();
	});
});

describe('LibreBOR Trigger under an hourly quota: what still fails a poll', () => {
	it('fails the first poll of an activation, which must take its baseline, and takes it once the quota is back', async () => {
		const existing = sim().state.addAlert();
		sim().traffic.rateLimit = drfHourly(1);
		// Another workflow on the account spent the quota before the trigger's first poll.
		expect(await fetchListing()).toBe(200);
		const session = triggerSession(sim());
		await expect(session.poll()).rejects.toThrow(/rate limiting the requests \(429\)/);

		clock.advance(HOUR_MS);
		expect(await session.poll()).toBeNull();
		const fresh = sim().state.addAlert();
		clock.advance(HOUR_MS);
		expect(alertIdsOf(await session.poll())).toEqual([fresh.id]);
		expect(unreadIds(sim())).toContain(existing.id);
	});

	it('still fails a poll refused for lack of access (403), which waiting does not cure', async () => {
		const session = triggerSession(sim());
		expect(await session.poll()).toBeNull();
		sim().injectFault({ method: 'GET', path: ALERTS_PATH, status: 403, times: 1 });
		await expect(session.poll()).rejects.toThrow('LibreBOR refused access to this feature (403)');
	});

	it('skips quietly while LibreBOR is unavailable (503) for longer than a poll can wait, and emits once it is back', async () => {
		const session = triggerSession(sim());
		expect(await session.poll()).toBeNull();
		const alert = sim().state.addAlert();
		sim().injectFault({ method: 'GET', path: ALERTS_PATH, status: 503, retryAfter: 3600 });
		const { output, warnings } = await pollRecordingWarnings(session);
		expect(output).toBeNull();
		expect(warnings).toEqual([
			expect.stringMatching(/^LibreBOR Trigger skipped a poll: .*\(503\) again and again/),
		]);
		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
	});

	it('skips quietly when the quota answers 429 without Retry-After (tastypie), within the poll budget of the scheduler', async () => {
		sim().traffic.rateLimit = { shape: 'sliding-log-tastypie', requests: 1, windowMs: HOUR_MS };
		const session = triggerSession(sim(), { cursorStorage: 'scheduler', pollBudgetMs: 1_500 });
		expect(await session.poll()).toBeNull();
		const alert = sim().state.addAlert();
		const startedAt = Date.now();
		expect(await session.poll()).toBeNull();
		expect(Date.now() - startedAt).toBeLessThan(1_500);

		clock.advance(HOUR_MS + 1_000);
		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
	});
});

/** One listing sent by another client of the same account; its status. */
async function fetchListing(): Promise<number> {
	const { username, password } = sim().credentials;
	const response = await fetch(`${sim().baseUrl}${ALERTS_PATH.slice('/v2'.length)}`, {
		headers: {
			authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
		},
	});
	await response.text();
	return response.status;
}
