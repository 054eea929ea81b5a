import { describe, expect, it } from 'vitest';

import {
	alertIdsOf,
	TRIGGER_KINDS,
	MARK_ALL_PATH,
	useSimulator,
	activatedSession,
	MARK_AS_READ,
} from './triggerSession.mts';

const LIST_CAP = 50;
const sim = useSimulator({ alertListCap: LIST_CAP });

describe.each(TRIGGER_KINDS)(
	`LibreBOR Trigger, listing capped to the latest ${LIST_CAP} (%s)`,
	(_, kind) => {
		it(`emits each of 200 alerts arriving in bursts exactly once when the list shows only the latest ${LIST_CAP}`, async () => {
			const session = await activatedSession(sim(), { ...kind, parameters: MARK_AS_READ });

			const arrived: string[] = [];
			const emitted: string[] = [];
			const pollOnce = async () => emitted.push(...alertIdsOf(await session.poll()));
			for (const burst of [30, 120, 5, 45]) {
				arrived.push(
					...sim()
						.state.addAlerts(burst)
						.map(({ id }) => id),
				);
				await pollOnce();
				await pollOnce();
			}
			for (let poll = 0; poll < 10; poll++) await pollOnce();

			expect(arrived).toHaveLength(200);
			expect(emitted).toHaveLength(200);
			expect(new Set(emitted).size).toBe(200);
			expect(new Set(emitted)).toEqual(new Set(arrived));
			expect(sim().state.unreadAlerts()).toEqual([]);
			expect(sim().requestsTo('GET', MARK_ALL_PATH)).toEqual([]);
		});
	},
);
