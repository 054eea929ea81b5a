import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { jsonOf, pairedItemsOf, runLibreBor, useSimulator } from '../support/libreBor.mts';

const sim = useSimulator();
const FOLLOW = '/v2/alerts/follow/';
const UNFOLLOW = '/v2/alerts/unfollow/';

/** Watch List > Sync of the input items' `nif`, with Unfollow Others and the options given. */
const sync = (unfollowOthers = false, options: INodeParameters = {}): INodeParameters => ({
	resource: 'watchlist',
	operation: 'sync',
	nif: '={{ $json.nif }}',
	unfollowOthers,
	options,
});
const rows = (...nifs: string[]) => nifs.map((nif) => ({ nif }));
const followed = () =>
	sim()
		.state.watchlist.map((entity) => entity.nif)
		.sort();
const changesSent = () => [
	...sim().requestsTo('POST', FOLLOW),
	...sim().requestsTo('POST', UNFOLLOW),
];
const nameOf = (nif: string) => sim().state.companies.get(nif).name;
const hintsOf = (result: Awaited<ReturnType<typeof runLibreBor>>) =>
	(result.runData[result.nodeName]?.[0]?.hints ?? []).map((hint) => hint.message);
const everyItem = (count: number) => Array.from({ length: count }, (_, item) => ({ item }));

describe('Watch List: Sync', () => {
	it('follows the NIFs the watch list lacks, keeps the others it holds, and leaves the rest alone', async () => {
		sim().state.follow('A86212420');
		sim().state.follow('J99216582');
		const result = await runLibreBor(sim(), sync(), { items: rows('es-b 6471 7838', 'A86212420') });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			{ nif: 'B64717838', name: null, action: 'follow', applied: true },
			{ nif: 'A86212420', name: nameOf('A86212420'), action: 'keep', applied: false },
		]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(followed()).toEqual(['A86212420', 'B64717838', 'J99216582']);
		expect(
			sim()
				.requestsTo('POST', FOLLOW)
				.map((request) => request.form),
		).toEqual([{ nif: 'B64717838', type: 'company' }]);
		expect(sim().requestsTo('GET', '/v2/alerts/following/')).toHaveLength(1);
	});

	it('with Unfollow Others, also unfollows what no item names, paired with every input item', async () => {
		for (const nif of ['A86212420', 'J99216582', 'A28012342']) sim().state.follow(nif);
		const result = await runLibreBor(sim(), sync(true), {
			items: rows('A86212420', 'B64717838'),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			{ nif: 'A86212420', name: nameOf('A86212420'), action: 'keep', applied: false },
			{ nif: 'B64717838', name: null, action: 'follow', applied: true },
			{ nif: 'J99216582', name: nameOf('J99216582'), action: 'unfollow', applied: true },
			{ nif: 'A28012342', name: nameOf('A28012342'), action: 'unfollow', applied: true },
		]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, everyItem(2), everyItem(2)]);
		expect(followed()).toEqual(['A86212420', 'B64717838']);
	});

	it('makes one change for a NIF named twice, paired with the first item naming it', async () => {
		sim().state.follow('J99216582');
		const result = await runLibreBor(sim(), sync(true), {
			items: rows('B64717838', 'A86212420', 'b-64717838', 'B64717838'),
		});
		expect(jsonOf(result).map((item) => [item.nif, item.action])).toEqual([
			['B64717838', 'follow'],
			['A86212420', 'follow'],
			['J99216582', 'unfollow'],
		]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, everyItem(4)]);
		expect(sim().requestsTo('POST', FOLLOW)).toHaveLength(2);
		expect(followed()).toEqual(['A86212420', 'B64717838']);
	});

	it('with Dry Run, changes nothing and outputs what a real run would, with applied false', async () => {
		for (const nif of ['A86212420', 'J99216582']) sim().state.follow(nif);
		const items = rows('A86212420', 'B64717838');
		const dry = await runLibreBor(sim(), sync(true, { dryRun: true }), { items });
		expect(changesSent()).toEqual([]);
		expect(followed()).toEqual(['A86212420', 'J99216582']);
		expect(hintsOf(dry)).toEqual([
			'Dry Run: nothing was changed. Without it, Sync would follow 1, keep 1 and unfollow 1 companies.',
		]);

		const real = await runLibreBor(sim(), sync(true), { items });
		expect(jsonOf(dry)).toEqual(jsonOf(real).map((item) => ({ ...item, applied: false })));
		expect(pairedItemsOf(dry)).toEqual(pairedItemsOf(real));
		expect(jsonOf(real).map((item) => item.applied)).toEqual([false, true, true]);
	});

	it('refuses, changing nothing (follows included), when more would be unfollowed than Max Unfollows', async () => {
		const watched = ['A86212420', 'J99216582', 'A28012342', 'B12345674'];
		for (const nif of watched) sim().state.follow(nif);
		const result = await runLibreBor(sim(), sync(true, { maxUnfollows: 2 }), {
			items: rows('A86212420', 'B64717838'),
		});
		expect(result.error?.message).toBe(
			'Sync would unfollow 3 companies, more than Max Unfollows (2): nothing was changed',
		);
		expect((result.error as { description?: string }).description).toMatch(
			/set Max Unfollows in Options to 3 or more; turn on Dry Run/,
		);
		expect(changesSent()).toEqual([]);
		expect(followed()).toEqual([...watched].sort());

		const continued = await runLibreBor(sim(), sync(true, { maxUnfollows: 2 }), {
			items: rows('A86212420', 'B64717838'),
			continueOnFail: true,
		});
		expect(jsonOf(continued).map((item) => item.error)).toEqual([
			result.error?.message,
			result.error?.message,
		]);
		expect(pairedItemsOf(continued)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(changesSent()).toEqual([]);

		const dry = await runLibreBor(sim(), sync(true, { maxUnfollows: 2, dryRun: true }), {
			items: rows('A86212420', 'B64717838'),
		});
		expect(jsonOf(dry).filter((item) => item.action === 'unfollow')).toHaveLength(3);
		expect(hintsOf(dry)[0]).toMatch(/A real run would be refused: .* Max Unfollows \(2\)/);
		expect(changesSent()).toEqual([]);
	});

	it('refuses an invalid NIF by name before sending anything, without Continue On Fail', async () => {
		sim().state.follow('J99216582');
		const result = await runLibreBor(sim(), sync(true), {
			items: rows('A86212420', 'B64717839', 'B64717838'),
		});
		expect(result.error?.message).toMatch(/^The NIF "B64717839" is not valid/);
		expect(sim().requests).toEqual([]);
		expect(followed()).toEqual(['J99216582']);
	});

	it('with Continue On Fail, gives an invalid or empty NIF an error item, syncs the rest and unfollows nothing', async () => {
		sim().state.follow('J99216582');
		const result = await runLibreBor(sim(), sync(true), {
			items: rows('A86212420', 'B64717839', '', 'B64717838'),
			continueOnFail: true,
		});
		expect(jsonOf(result)).toEqual([
			{ nif: 'A86212420', name: null, action: 'follow', applied: true },
			{ error: expect.stringMatching(/^The NIF "B64717839" is not valid/) },
			{ error: 'The NIF is empty' },
			{ nif: 'B64717838', name: null, action: 'follow', applied: true },
		]);
		expect(pairedItemsOf(result)).toEqual(everyItem(4));
		// The invalid rows may stand for watched companies: the input is not known to be the whole list.
		expect(followed()).toEqual(['A86212420', 'B64717838', 'J99216582']);
		expect(sim().requestsTo('POST', UNFOLLOW)).toEqual([]);
		expect(hintsOf(result)).toEqual([
			expect.stringMatching(/^Unfollow Others unfollowed none of the 1 watched companies/),
		]);
	});

	it('never unfollows anything for an input that names no valid NIF', async () => {
		for (const nif of ['A86212420', 'J99216582']) sim().state.follow(nif);
		const result = await runLibreBor(sim(), sync(true, { maxUnfollows: 100 }), {
			items: [{ company: 'ACME' }, { nif: '' }],
			continueOnFail: true,
		});
		expect(jsonOf(result)).toEqual([{ error: 'The NIF is empty' }, { error: 'The NIF is empty' }]);
		expect(changesSent()).toEqual([]);
		expect(followed()).toEqual(['A86212420', 'J99216582']);
	});

	it('says which changes were made when one fails part-way, and sends no further one', async () => {
		sim().state.follow('J99216582');
		let follows = 0;
		sim().onRequest(
			{ method: 'POST', path: FOLLOW },
			() => {
				if (++follows === 2)
					sim().injectFault({
						method: 'POST',
						path: FOLLOW,
						status: 400,
						body: '{"result":"error","message":"bad"}',
					});
			},
			Infinity,
		);
		const result = await runLibreBor(sim(), sync(true, { concurrency: 1 }), {
			items: rows('A86212420', 'B64717838', 'A28012342', 'B12345674'),
		});
		const error = result.error as Error & { description?: string };
		expect(error.message).toMatch(/^Sync stopped at the follow of A28012342: .*\(400\)/);
		expect(error.description).toMatch(
			/^2 of 5 changes were made before it stopped: follow A86212420, follow B64717838\. Not made: follow A28012342, follow B12345674, unfollow J99216582\. Run Sync again/,
		);
		expect(followed()).toEqual(['A86212420', 'B64717838', 'J99216582']);
	});

	it('with Continue On Fail, gives a failed change an error item and makes the others', async () => {
		sim().injectFault({
			method: 'POST',
			path: UNFOLLOW,
			status: 400,
			body: '{"result":"error","message":"bad"}',
		});
		sim().state.follow('J99216582');
		const result = await runLibreBor(sim(), sync(true), {
			items: rows('A86212420', 'B64717838'),
			continueOnFail: true,
		});
		expect(jsonOf(result)).toEqual([
			{ nif: 'A86212420', name: null, action: 'follow', applied: true },
			{ nif: 'B64717838', name: null, action: 'follow', applied: true },
			{ error: expect.stringMatching(/^The unfollow of J99216582 failed: .*\(400\)/) },
		]);
		expect(result.items[2].error).toBeDefined();
		expect(pairedItemsOf(result)[2]).toEqual(everyItem(2));
		expect(followed()).toEqual(['A86212420', 'B64717838', 'J99216582']);
	});

	it('with Continue On Fail, gives every item the error when the watch list cannot be read, and changes nothing', async () => {
		sim().injectFault({ method: 'GET', path: '/v2/alerts/following/', status: 401 });
		const result = await runLibreBor(sim(), sync(true), {
			items: rows('A86212420', 'B64717838'),
			continueOnFail: true,
		});
		expect(jsonOf(result)).toEqual([
			{ error: expect.stringMatching(/\(401\)/) },
			{ error: expect.stringMatching(/\(401\)/) },
		]);
		expect(pairedItemsOf(result)).toEqual(everyItem(2));
		expect(changesSent()).toEqual([]);
	});

	it('exists in version 2 only', async () => {
		const result = await runLibreBor(sim(), sync(), {
			items: rows('B64717838'),
			typeVersion: 1,
		});
		expect(result.error?.message).toMatch(/version 2/);
		expect(sim().requests).toEqual([]);
	});
});
