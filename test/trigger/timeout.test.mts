import { describe, expect, it } from 'vitest';

import { ALERTS_PATH, alertIdsOf, useSimulator, activatedSession } from './triggerSession.mts';

const sim = useSimulator();

describe('LibreBOR Trigger, request timeout', () => {
	it('gives up on a listing slower than the Request Timeout option, then catches up', async () => {
		const session = await activatedSession(sim(), { parameters: { options: { timeout: 0.3 } } });

		const alert = sim().state.addAlert();
		sim().injectFault({ method: 'GET', path: ALERTS_PATH, delayMs: 1500, times: 4 });
		const started = Date.now();
		await expect(session.poll()).rejects.toThrow(
			'LibreBOR did not answer in time for GET /alerts/',
		);
		expect(Date.now() - started).toBeLessThan(1500 * 4);

		expect(alertIdsOf(await session.poll())).toEqual([alert.id]);
	});
});
