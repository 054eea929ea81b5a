import { describe, expect, it } from 'vitest';

import { ALERTS_PATH, alertIdsOf, useSimulator, activatedSession } from './triggerSession.mts';

const sim = useSimulator();

describe('LibreBOR Trigger, request timeout', () => {
	it('gives up on a listing slower than the Request Timeout option, then catches up', async () => {
		const session = await activatedSession(sim(), { parameters: { options: { timeout: 0.3 } } });

		const alert = sim().state.addAlert();
		const listings = () => sim().requestsTo('GET', ALERTS_PATH).length;
		const before = listings();
		const slow = sim().injectFault({ method: 'GET', path: ALERTS_PATH, delayMs: 600, times: 4 });
		await expect(session.poll()).rejects.toThrow(
			'LibreBOR did not answer in time for GET /alerts/',
		);
		// The first try and its three retries, each given up at the 0.3 s timeout: a try that had
		// waited for LibreBOR's answer 0.6 s after it was sent would have had the alert, as a fifth
		// try would have.
		expect(listings() - before).toBe(4);
		expect(slow.hits).toBe(4);

		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
	});
});
