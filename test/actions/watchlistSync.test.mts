import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { companyNifs } from '../../scripts/bench/nifs.mts';
import { hintsOf, jsonOf, pairedItemsOf, runLibreBor, useSimulator } from '../support/libreBor.mts';
import { answerWatchList } from '../support/libreBor.mts';

const sim = useSimulator();
const FOLLOW = '/v2/alerts/follow/';
const UNFOLLOW = '/v2/alerts/unfollow/';
const FOLLOWING = '/v2/alerts/following/';
const JSON_TYPE = 'application/json';
/** A change LibreBOR refuses, as it says so. */
const BAD = { status: 400, body: '{"result":"error","message":"bad"}', contentType: JSON_TYPE };

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
const everyItem = (count: number) => Array.from({ length: count }, (_, item) => ({ item }));
const descriptionOf = (error: unknown) =>
	(error as { description?: string } | undefined)?.description;

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

	it('keeps a company the input names with its NIF spelt otherwise than the list, and unfollows nothing', async () => {
		sim().state.follow('J9921658B');
		const result = await runLibreBor(sim(), sync(true), { items: rows('J99216582', 'J9921658B') });
		expect(jsonOf(result)).toEqual([
			{ nif: 'J99216582', name: nameOf('J9921658B'), action: 'keep', applied: false },
		]);
		expect(changesSent()).toEqual([]);
		expect(followed()).toEqual(['J9921658B']);
	});

	it('unfollows, as the list writes them, NIFs that only look like a named one, padded or not', async () => {
		answerWatchList(sim(), [
			{ name: 'A', nif: ' XJ9921658B ' },
			{ name: 'B', nif: 'J9921658BX' },
			{ name: 'C', nif: null },
		]);
		const result = await runLibreBor(sim(), sync(true, { dryRun: true }), {
			items: rows('J99216582'),
		});
		expect(jsonOf(result).map(({ nif, action }) => `${action} ${String(nif)}`)).toEqual([
			'follow J99216582',
			'unfollow XJ9921658B',
			'unfollow J9921658BX',
		]);
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
		expect(descriptionOf(result.error)).toMatch(
			/^The input names 2 companies; .* set Max Unfollows in Options to 3 or more; turn on Dry Run/,
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

		const allowed = await runLibreBor(sim(), sync(true, { maxUnfollows: 3 }), {
			items: rows('A86212420', 'B64717838'),
		});
		expect(allowed.error).toBeUndefined();
		expect(followed()).toEqual(['A86212420', 'B64717838']);
	});

	it.each(['={{ -1 }}', '={{ "" }}', '={{ "  " }}'])(
		'refuses a Max Unfollows of %s set by an expression, sending nothing',
		async (maxUnfollows) => {
			const result = await runLibreBor(sim(), sync(true, { maxUnfollows }), {
				items: rows('A86212420'),
			});
			expect(result.error?.message).toMatch(/^"Max Unfollows" must be a number of at least 0/);
			expect(descriptionOf(result.error)).toMatch(/^Nothing was changed\. /);
			expect(sim().requests).toEqual([]);
		},
	);

	it('refuses an invalid NIF by name before sending anything, without Continue On Fail', async () => {
		sim().state.follow('J99216582');
		const result = await runLibreBor(sim(), sync(true), {
			items: rows('A86212420', 'B64717839', 'B64717838'),
		});
		expect(result.error?.message).toMatch(/^The NIF "B64717839" is not valid/);
		expect(sim().requests).toEqual([]);
		expect(followed()).toEqual(['J99216582']);
	});

	it('with Continue On Fail, gives an invalid, empty or unreadable NIF an error item, syncs the rest and unfollows nothing', async () => {
		sim().state.follow('J99216582');
		const result = await runLibreBor(
			sim(),
			{ ...sync(true), nif: '={{ $json.broken ? $("Missing").item.json.nif : $json.nif }}' },
			{
				items: [...rows('A86212420', 'B64717839', '', 'B64717838'), { broken: true }],
				continueOnFail: true,
			},
		);
		expect(jsonOf(result)).toEqual([
			{ nif: 'A86212420', name: null, action: 'follow', applied: true },
			{ error: expect.stringMatching(/^The NIF "B64717839" is not valid/) },
			{ error: 'The NIF is empty' },
			{ nif: 'B64717838', name: null, action: 'follow', applied: true },
			{ error: "Referenced node doesn't exist" },
		]);
		expect(result.items[4].error?.context.itemIndex).toBe(4);
		expect(pairedItemsOf(result)).toEqual(everyItem(5));
		// The invalid rows may stand for watched companies: the input is not known to be the whole list.
		expect(followed()).toEqual(['A86212420', 'B64717838', 'J99216582']);
		expect(sim().requestsTo('POST', UNFOLLOW)).toEqual([]);
		expect(hintsOf(result)).toEqual([
			'Unfollow Others unfollowed none of the 1 watched companies the input leaves out: 3 input item(s) have no valid NIF (their error items say why), so the input may not be the whole list. Fix the input and run Sync again.',
		]);
	});

	it('leaves alone watched entries without a NIF, and names a NIF listed twice as its first entry does', async () => {
		sim().state.follow('J99216582');
		const entity = (nif: string, name: string) => ({ type: 'company', name, nif });
		const entities = [
			{ type: 'person', name: 'Ana Pérez García' },
			entity('', 'Blank'),
			entity('  ', 'Spaces'),
			entity('A86212420', 'First'),
			entity('a-86212420', 'Second'),
			entity('J99216582', 'Other'),
		];
		const body = JSON.stringify({ entities });
		sim().injectFault({
			method: 'GET',
			path: FOLLOWING,
			status: 200,
			body,
			contentType: JSON_TYPE,
		});
		const result = await runLibreBor(sim(), sync(true), { items: rows('A86212420') });
		expect(jsonOf(result)).toEqual([
			{ nif: 'A86212420', name: 'First', action: 'keep', applied: false },
			{ nif: 'J99216582', name: 'Other', action: 'unfollow', applied: true },
		]);
		expect(changesSent().map((request) => request.form.nif)).toEqual(['J99216582']);
	});

	it('says applied false for an unfollow LibreBOR had nothing left to do for', async () => {
		sim().state.follow('J99216582');
		// Someone else unfollows it right after Sync read the watch list.
		sim().onRequest({ method: 'GET', path: FOLLOWING }, () => {
			sim().state.unfollow('J99216582');
		});
		const result = await runLibreBor(sim(), sync(true), { items: rows('A86212420') });
		expect(jsonOf(result)).toEqual([
			{ nif: 'A86212420', name: null, action: 'follow', applied: true },
			{ nif: 'J99216582', name: nameOf('J99216582'), action: 'unfollow', applied: false },
		]);
		expect(sim().requestsTo('GET', FOLLOWING)).toHaveLength(1);
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

	it.each([
		{
			answer: 'LibreBOR refuses it',
			fault: BAD,
			error: /an unexpected status \(400\)$/,
			said: /LibreBOR said: "bad"$/,
			httpCode: '400',
		},
		{
			answer: 'LibreBOR keeps rate limiting past the time budget',
			fault: { status: 429, retryAfter: 3600 },
			error:
				/rate limiting the requests \(429\): stopped because .*; 2 of 5 items were done by then$/,
			said: /Raise the Time Budget option/,
			httpCode: '429',
		},
	])(
		'says which changes were made when one fails part-way ($answer), and sends no further one',
		async ({ fault, error: reason, said, httpCode }) => {
			sim().state.follow('J99216582');
			let follows = 0;
			sim().onRequest(
				{ method: 'POST', path: FOLLOW },
				() => {
					if (++follows === 2) sim().injectFault({ method: 'POST', path: FOLLOW, ...fault });
				},
				Infinity,
			);
			const result = await runLibreBor(sim(), sync(true, { concurrency: 1 }), {
				items: rows('A86212420', 'B64717838', 'A28012342', 'B12345674'),
			});
			expect(result.error?.message).toMatch(/^Sync stopped at the follow of A28012342: /);
			expect(result.error?.message).toMatch(reason);
			// n8n names the input item the error is about.
			expect(result.error).toMatchObject({ context: { itemIndex: 2 } });
			// An API error stays one: n8n shows its status as the error code.
			expect(result.error).toMatchObject({ httpCode });
			expect(descriptionOf(result.error)).toMatch(
				/^2 of 5 changes were made before it stopped: follow A86212420, follow B64717838\. Not made: follow A28012342, follow B12345674, unfollow J99216582\. Run Sync again to make the rest: it only changes what still differs\. \S/,
			);
			// Then what the failed request's own error says.
			expect(descriptionOf(result.error)).toMatch(said);
			expect(sim().requestsTo('POST', FOLLOW)).toHaveLength(3);
			expect(followed()).toEqual(['A86212420', 'B64717838', 'J99216582']);
		},
	);

	it.each([
		{ changes: 50, more: '' },
		{ changes: 51, more: ' and 1 more' },
	])(
		'lists at most 50 changes in the error of a failed Sync ($changes changes)',
		async ({ changes, more }) => {
			const nifs = companyNifs(changes);
			sim().injectFault({ method: 'POST', path: FOLLOW, ...BAD });
			const result = await runLibreBor(sim(), sync(false, { concurrency: 1 }), {
				items: rows(...nifs),
			});
			const listed = nifs.slice(0, 50).map((nif) => `follow ${nif}`);
			expect(descriptionOf(result.error)).toContain(
				`0 of ${changes} changes were made before it stopped: none. Not made: ${listed.join(', ')}${more}. Run Sync again`,
			);
			expect(sim().requestsTo('POST', FOLLOW)).toHaveLength(1);
		},
	);

	it('sends no change again that waits for its retry when another one fails, and says it may have been made', async () => {
		sim().state.follow('J99216582');
		// LibreBOR made the follow, then answered 502: its retry waits when the unfollow fails.
		sim().injectFault({
			method: 'POST',
			path: FOLLOW,
			status: 502,
			retryAfter: 2,
			afterHandling: true,
		});
		sim().injectFault({ method: 'POST', path: UNFOLLOW, ...BAD });
		const result = await runLibreBor(sim(), sync(true, { concurrency: 2 }), {
			items: rows('A86212420'),
		});
		expect(result.error?.message).toMatch(/^Sync stopped at the unfollow of J99216582: .*\(400\)$/);
		expect(descriptionOf(result.error)).toMatch(
			/^0 of 2 changes were made before it stopped: none\. Not made: unfollow J99216582\. Stopped after an answer that may hide that it was made \(a server error; the watch list tells\): follow A86212420\. Run Sync again/,
		);
		expect(sim().requestsTo('POST', FOLLOW)).toHaveLength(1);
		expect(followed()).toEqual(['A86212420', 'J99216582']);
	});

	it.each([
		['waiting out a 429 (a throttle comes before LibreBOR acts)', { status: 429, retryAfter: 5 }],
		['that LibreBOR refused after the stop', { status: 403, delayMs: 300 }],
	])('lists as not made a follow %s when an unfollow stops Sync', async (_case, fault) => {
		sim().state.follow('J99216582');
		sim().injectFault({ method: 'POST', path: FOLLOW, ...fault });
		// A refusal of access, final at once (no second look at the watch list).
		sim().injectFault({ method: 'POST', path: UNFOLLOW, status: 403 });
		const result = await runLibreBor(sim(), sync(true, { concurrency: 2 }), {
			items: rows('A86212420'),
		});
		expect(descriptionOf(result.error)).toMatch(
			/^0 of 2 changes were made before it stopped: none\. Not made: follow A86212420, unfollow J99216582\. Run Sync again/,
		);
	});

	it('with Continue On Fail, gives each failed change an error item and makes the others', async () => {
		for (const path of [FOLLOW, UNFOLLOW]) sim().injectFault({ method: 'POST', path, ...BAD });
		sim().state.follow('J99216582');
		const result = await runLibreBor(sim(), sync(true, { concurrency: 1 }), {
			items: rows('A86212420', 'B64717838'),
			continueOnFail: true,
		});
		// n8n keeps only { error } of an error item: its message names the change that failed.
		expect(jsonOf(result)).toEqual([
			{ error: expect.stringMatching(/^The follow of A86212420 failed: .*\(400\)$/) },
			{ nif: 'B64717838', name: null, action: 'follow', applied: true },
			{ error: expect.stringMatching(/^The unfollow of J99216582 failed: .*\(400\)$/) },
		]);
		const said = expect.stringMatching(/LibreBOR said: "bad"$/);
		expect(result.items.map((item) => item.error?.description)).toEqual([said, undefined, said]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, everyItem(2)]);
		expect(followed()).toEqual(['B64717838', 'J99216582']);
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
		expect(descriptionOf(result.error)).toMatch(/^This node is version 1, which has no Sync\. /);
		expect(sim().requests).toEqual([]);
	});

	it('keeps what it learned of the rate limit in the workflow, for the runs after it', async () => {
		// Slow answers keep requests in flight together: the run learns how many went fine at once.
		sim().state.latencyMs = 100;
		const workflow = { id: 'sync-workflow', staticData: {} };
		const result = await runLibreBor(sim(), sync(), { items: rows(...companyNifs(12)), workflow });
		expect(result.error).toBeUndefined();
		expect(JSON.stringify(workflow.staticData)).toMatch(/"inFlight":\d+/);
	});
});
