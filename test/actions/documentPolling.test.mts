// When the node asks LibreBOR whether a document is ready: soon after the order, then less and
// less often, never more than Poll Interval apart. Run on a virtual clock shared by the node and the
// simulator, so that documents that take seconds or minutes run in a moment and every check falls
// at an exact time.
import { describe, expect, it, vi } from 'vitest';

import { jsonOf, placedDocument, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { inVirtualTime, virtualClock } from '../support/virtualTime.mts';
import { order, savedWorkflow } from './orderRuns.mts';

vi.mock(
	'../../nodes/LibreBor/time/clock.ts',
	async () => (await import('../support/virtualClock.mts')).nodeClock,
);

const sim = useSimulator({ clock: virtualClock, documentSizeBytes: 1024 });
const SECOND = 1000;

/** The times of the status checks of the one document, in whole milliseconds after `fromMs`. */
function checksOfTheDocument(fromMs: number): number[] {
	const [document] = sim().state.documents;
	return sim()
		.requestsTo('GET', `/v2/documents/${document.id}/`)
		.map((request) => Math.round(request.time - fromMs));
}

const orderedAt = () => sim().requestsTo('POST', '/v2/documents/order/')[0].time;

describe('Waiting for a document: when the node checks it', () => {
	it('sees a document ready 10 s after its order 11.3 s after the order with the default options, not after a minute', async () => {
		sim().state.documentProcessingMs = 10 * SECOND;
		const started = virtualClock.now();
		const result = await inVirtualTime(runLibreBor(sim(), order({}, { waitForCompletion: true })));
		expect(jsonOf(result)[0].status).toBe('completed');
		// A second after the order, then each gap a quarter longer than the one before.
		expect(checksOfTheDocument(orderedAt())).toEqual([1000, 2250, 3813, 5767, 8210, 11264]);
		// The order itself waited a second for its record to settle.
		expect(orderedAt() - started).toBe(SECOND);
	});

	it('checks a document that takes ten minutes at most Poll Interval apart, and sees it within one Poll Interval', async () => {
		sim().state.documentProcessingMs = 600 * SECOND;
		const result = await inVirtualTime(runLibreBor(sim(), order({}, { waitForCompletion: true })));
		expect(jsonOf(result)[0].status).toBe('completed');
		const checks = checksOfTheDocument(orderedAt());
		const gaps = checks.map((time, index) => time - (checks[index - 1] ?? 0));
		expect(gaps[0]).toBe(SECOND);
		expect(gaps).toEqual([...gaps].sort((a, b) => a - b));
		expect(Math.max(...gaps)).toBe(60 * SECOND);
		expect(checks.at(-1)).toBeGreaterThanOrEqual(600 * SECOND);
		expect(checks.at(-1)).toBeLessThanOrEqual(660 * SECOND);
		// A check every Poll Interval would make 10 and see it up to a minute late; every second, 600.
		expect(checks.length).toBeLessThanOrEqual(30);
	});

	it('keeps to a shorter Poll Interval as the longest gap', async () => {
		sim().state.documentProcessingMs = 4 * SECOND;
		await inVirtualTime(
			runLibreBor(sim(), order({}, { waitForCompletion: true, pollInterval: 1 })),
		);
		expect(checksOfTheDocument(orderedAt())).toEqual([1000, 2000, 3000, 4000]);
	});

	it('checks a document given to Download at once, then as after an order', async () => {
		sim().state.documentProcessingMs = 5 * SECOND;
		// It finishes without a file: the checks are all this test follows (a download's deadline
		// waits on the virtual clock too).
		sim().state.downloadLinkOverride = () => null;
		const document = placedDocument(sim());
		const result = await inVirtualTime(
			runLibreBor(sim(), {
				resource: 'document',
				operation: 'download',
				documentId: document.id,
				binaryPropertyName: 'data',
			}),
		);
		expect(result.error?.message).toMatch(/finished with status "completed" and no download link/);
		expect(checksOfTheDocument(document.orderedAtMs)).toEqual([0, 1000, 2250, 3813, 5767]);
	});

	it("checks a reused order's document at once, then as after an order", async () => {
		sim().state.documentProcessingMs = 5 * SECOND;
		const workflow = savedWorkflow();
		await inVirtualTime(runLibreBor(sim(), order(), { workflow }));
		const reusedAt = virtualClock.now();
		const reused = await inVirtualTime(
			runLibreBor(sim(), order({}, { waitForCompletion: true }), { workflow }),
		);
		expect(jsonOf(reused)[0]).toMatchObject({ reused_order: true, status: 'completed' });
		expect(checksOfTheDocument(reusedAt).slice(0, 3)).toEqual([0, 1000, 2250]);
	});

	it('makes its last check at the end of Max Wait, then fails with the document to pick up later', async () => {
		sim().state.documentProcessingMs = 60 * SECOND;
		const result = await inVirtualTime(
			runLibreBor(sim(), order({}, { waitForCompletion: true, maxWait: 10 })),
		);
		const [document] = sim().state.documents;
		expect(result.error?.message).toBe(`Document ${document.id} is still processing after 10 s`);
		expect((result.error as { description?: string }).description).toBe(
			`It was ordered and will be ready later. Get it then with the Download operation and document ID ${document.id}, or raise Max Wait.`,
		);
		expect(checksOfTheDocument(orderedAt())).toEqual([1000, 2250, 3813, 5767, 8210, 10_000]);
	});

	it('ends a long wait at once when the execution is cancelled, not at its next check', async () => {
		sim().state.documentProcessingMs = 600 * SECOND;
		let cancel = () => {};
		const cancelled = new Promise<void>((resolve) => (cancel = resolve));
		let cancelledAt: number | undefined;
		const run = runLibreBor(sim(), order({}, { waitForCompletion: true }), {
			continueOnFail: true,
			cancelWhen: cancelled,
		});
		// Cancelled while the node sleeps through a gap of half a minute or more.
		const result = await inVirtualTime(run, (wakeAt) => {
			if (cancelledAt !== undefined || wakeAt - virtualClock.now() < 30 * SECOND) return true;
			cancelledAt = virtualClock.now();
			cancel();
			return false;
		});
		expect(result.run.status).toBe('canceled');
		expect(cancelledAt).toBeDefined();
		// The clock never had to move on to the next check: the wait ended where it was cancelled.
		expect(virtualClock.now()).toBe(cancelledAt);
		expect(checksOfTheDocument(orderedAt()).at(-1)).toBeLessThanOrEqual(
			Math.round(cancelledAt! - orderedAt()),
		);
	});
});
