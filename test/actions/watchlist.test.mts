import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	answerWatchList,
	jsonOf,
	pairedItemsOf,
	runLibreBor,
	useSimulator,
} from '../support/libreBor.mts';

const sim = useSimulator();
/** A Follow or Unfollow of one NIF (or expression), with its options. */
const change = (operation: 'follow' | 'unfollow', nif: string, options?: INodeParameters) => ({
	resource: 'watchlist',
	operation,
	nif,
	...(options && { options }),
});
const followed = () => sim().state.watchlist.map((entity) => entity.nif);
const FOLLOWING = '/v2/alerts/following/';

describe('Watch List: Follow', () => {
	it('follows a company by its NIF, normalised, and says it changed the list', async () => {
		const result = await runLibreBor(sim(), change('follow', 'es b-6471 7838'));
		expect(jsonOf(result)).toEqual([{ result: 'success', nif: 'B64717838', change: 'followed' }]);
		expect(followed()).toEqual(['B64717838']);
		const post = sim().requestsTo('POST', '/v2/alerts/follow/');
		expect(post.map((request) => request.form)).toEqual([{ nif: 'B64717838', type: 'company' }]);
	});

	it('says so, without a second request, when the company is already followed', async () => {
		sim().state.follow('A86212420');
		const result = await runLibreBor(sim(), change('follow', 'A86212420'));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			{ result: 'success', nif: 'A86212420', change: 'already_followed' },
		]);
		expect(sim().requestsTo('POST', '/v2/alerts/follow/')).toHaveLength(0);
	});

	it('follows a list of companies in parallel with one watch-list read, keeping item order', async () => {
		const nifs = ['A86212420', 'B64717838', 'J99216582', 'B64717838'];
		const result = await runLibreBor(
			sim(),
			change('follow', '={{ $json.nif }}', { concurrency: 3 }),
			{ items: nifs.map((nif) => ({ nif })) },
		);
		expect(jsonOf(result).map((answer) => [answer.nif, answer.change])).toEqual([
			['A86212420', 'followed'],
			['B64717838', 'followed'],
			['J99216582', 'followed'],
			['B64717838', 'already_followed'],
		]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(sim().requestsTo('GET', '/v2/alerts/following/')).toHaveLength(1);
		expect(sim().requestsTo('POST', '/v2/alerts/follow/')).toHaveLength(3);
		expect(followed().sort()).toEqual(['A86212420', 'B64717838', 'J99216582']);
	});

	it('sends no further item once one has failed, when not continuing on fail', async () => {
		const nifs = [
			'A86212420',
			'B64717838',
			'J99216582',
			'B00000000',
			'A86212420'.replace('A', 'B'),
			'A58818501',
			'B65410011',
			'A28017895',
			'B86561412',
			'A08015497',
		];
		sim().injectFault({
			method: 'POST',
			path: '/v2/alerts/follow/',
			status: 400,
			body: '{"result":"error","message":"bad"}',
		});
		const result = await runLibreBor(
			sim(),
			change('follow', '={{ $json.nif }}', { concurrency: 2 }),
			{ items: nifs.map((nif) => ({ nif })) },
		);
		expect(result.error?.message).toMatch(/\(400\)/);
		// The failed item first reads the watch list (has the follow happened after all?); the other
		// slot may start an item or two meanwhile, and none after.
		expect(sim().requestsTo('POST', '/v2/alerts/follow/').length).toBeLessThanOrEqual(4);
	});
});

// A CIF of these letters is valid with its check character as a digit or as a letter: J99216582
// and J9921658B are one company, whichever the list was given.
describe('Watch List: one company, its NIF spelt two ways', () => {
	it('says a company is already followed when the list spells its check character otherwise', async () => {
		sim().state.follow('J9921658B');
		const result = await runLibreBor(sim(), change('follow', 'J99216582'));
		expect(jsonOf(result)).toEqual([
			{ result: 'success', nif: 'J99216582', change: 'already_followed' },
		]);
		expect(sim().requestsTo('POST', '/v2/alerts/follow/')).toHaveLength(0);
	});

	it('unfollows the company as the list writes it', async () => {
		sim().state.follow('J9921658B');
		const result = await runLibreBor(sim(), change('unfollow', 'J99216582'));
		expect(jsonOf(result)).toEqual([{ result: 'success', nif: 'J99216582', change: 'unfollowed' }]);
		expect(followed()).toEqual([]);
	});
});

describe('Watch List: a list LibreBOR writes otherwise', () => {
	it('unfollows a company the list writes padded with spaces, past one it lists without a NIF', async () => {
		const entity = sim().state.follow('J99216582');
		answerWatchList(sim(), [
			{ name: 'KNOWN BY NAME ONLY SL', nif: null },
			{ ...entity, nif: ' J99216582 ' },
		]);
		const result = await runLibreBor(sim(), change('unfollow', 'J99216582'));
		expect(jsonOf(result)).toEqual([{ result: 'success', nif: 'J99216582', change: 'unfollowed' }]);
		const sent = sim().requestsTo('POST', '/v2/alerts/unfollow/');
		expect(sent.map((request) => request.form)).toEqual([{ nif: 'J99216582', type: 'company' }]);
	});
});

describe('Watch List answers that say they failed', () => {
	it('fails a follow that LibreBOR answers with a result other than success, and does not count it as followed', async () => {
		sim().injectFault({
			method: 'POST',
			path: '/v2/alerts/follow/',
			status: 200,
			body: '{"result":"error","message":"Unknown company"}',
			contentType: 'application/json',
		});
		const result = await runLibreBor(
			sim(),
			change('follow', '={{ $json.nif }}', { concurrency: 1 }),
			{ items: [{ nif: 'B64717838' }, { nif: 'B64717838' }], continueOnFail: true },
		);
		expect(result.items[0].error?.message).toMatch(/did not confirm/);
		expect(result.items[0].error?.description).toContain('Unknown company');
		expect(jsonOf(result)[1]).toMatchObject({ nif: 'B64717838', change: 'followed' });
		expect(sim().requestsTo('POST', '/v2/alerts/follow/')).toHaveLength(2);
	});

	it('fails a follow answered without the "result" every change answers with, and says nothing was shown done', async () => {
		sim().injectFault({
			method: 'POST',
			path: '/v2/alerts/follow/',
			status: 200,
			body: '{"detail":"Not found."}',
			contentType: 'application/json',
		});
		const result = await runLibreBor(sim(), change('follow', 'B64717838'));
		expect(result.error?.message).toBe(
			'LibreBOR did not confirm POST /alerts/follow/: it answered with result "none"',
		);
		expect(result.error?.description).toContain('Nothing shows that the change was made.');
		expect(followed()).toEqual([]);
	});

	it('fails an unfollow answered 404 by a web page, and leaves the company followed, not "not followed"', async () => {
		sim().state.follow('J99216582');
		sim().injectFault({
			method: 'POST',
			path: '/v2/alerts/unfollow/',
			status: 404,
			body: '<!doctype html><title>Not Found</title>',
			contentType: 'text/html',
		});
		const result = await runLibreBor(sim(), change('unfollow', 'J99216582'));
		expect(result.error?.message).toBe('LibreBOR did not find what was asked for (404)');
		expect(result.error?.description).toContain('check the base URL of the credential');
		expect(followed()).toEqual(['J99216582']);
	});

	it('gives each item its own error, with its own index, when the shared watch-list read fails', async () => {
		sim().injectFault({
			method: 'GET',
			path: '/v2/alerts/following/',
			status: 400,
			body: '{"message":"nope"}',
			times: Infinity,
		});
		const result = await runLibreBor(
			sim(),
			{ resource: 'watchlist', operation: 'follow', nif: '={{ $json.nif }}' },
			{
				items: [{ nif: 'A86212420' }, { nif: 'B64717838' }, { nif: 'J99216582' }],
				continueOnFail: true,
			},
		);
		expect(result.items.map((item) => item.error?.context.itemIndex)).toEqual([0, 1, 2]);
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

describe('Watch List: Unfollow', () => {
	it('removes a followed company, once for two items naming it', async () => {
		sim().state.follow('J99216582');
		const result = await runLibreBor(sim(), change('unfollow', '={{ $json.nif }}'), {
			items: [{ nif: 'J99216582' }, { nif: 'J99216582' }],
		});
		expect(jsonOf(result)).toEqual([
			{ result: 'success', nif: 'J99216582', change: 'unfollowed' },
			{ result: 'success', nif: 'J99216582', change: 'not_followed' },
		]);
		expect(sim().requestsTo('POST', '/v2/alerts/unfollow/')).toHaveLength(1);
		expect(followed()).toEqual([]);
	});

	it('says it unfollowed the company when its answer was lost and the retry finds the company gone', async () => {
		sim().state.follow('J99216582');
		sim().injectFault({
			method: 'POST',
			path: '/v2/alerts/unfollow/',
			afterHandling: true,
			status: 502,
		});
		const result = await runLibreBor(sim(), change('unfollow', 'J99216582'));
		expect(result.error).toBeUndefined();
		expect(sim().requestsTo('POST', '/v2/alerts/unfollow/')).toHaveLength(2);
		expect(jsonOf(result)).toEqual([{ result: 'success', nif: 'J99216582', change: 'unfollowed' }]);
		expect(followed()).toEqual([]);
	});

	it.each([
		['', false],
		[', after a 429 (a throttle comes before LibreBOR does anything)', true],
	])(
		'says the company was not followed when another client unfollowed it after the list was read%s',
		async (_case, throttledFirst) => {
			sim().state.follow('J99216582');
			sim().onRequest({ method: 'GET', path: FOLLOWING }, () => {
				sim().state.unfollow('J99216582');
			});
			if (throttledFirst)
				sim().injectFault({
					method: 'POST',
					path: '/v2/alerts/unfollow/',
					status: 429,
					retryAfter: 0,
				});
			const result = await runLibreBor(sim(), change('unfollow', 'J99216582'));
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual([
				{ result: 'success', nif: 'J99216582', change: 'not_followed' },
			]);
		},
	);

	it('says the company was not followed instead of failing', async () => {
		const result = await runLibreBor(sim(), change('unfollow', 'J99216582'));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			{ result: 'success', nif: 'J99216582', change: 'not_followed' },
		]);
	});
});

describe('Watch List: Get Many', () => {
	it('returns one item per watched company as the API returns it, reading the list again after a 503', async () => {
		sim().state.follow('A86212420');
		sim().state.follow('B64717838');
		sim().injectFault({ method: 'GET', path: '/v2/alerts/following/', status: 503, retryAfter: 0 });
		const result = await runLibreBor(sim(), { resource: 'watchlist', operation: 'getMany' });
		expect(jsonOf(result)).toEqual(sim().state.watchlist);
		expect(jsonOf(result)[0]).toMatchObject({ type: 'company', nif: 'A86212420' });
		expect(sim().requestsTo('GET', '/v2/alerts/following/')).toHaveLength(2);
	});

	it.each([['={{ "" }}'], ['={{ 0 }}'], ['={{ -1 }}']])(
		'refuses a Limit of %s set by an expression',
		async (limit) => {
			sim().state.follow('A86212420');
			const result = await runLibreBor(sim(), {
				resource: 'watchlist',
				operation: 'getMany',
				returnAll: false,
				limit,
			});
			expect(result.error?.message).toMatch(/"Limit" must be a number of at least 1/);
		},
	);

	it.each([
		['not a list', '{"entities":{"nif":"A86212420"}}'],
		['a list holding a null', '{"entities":[{"nif":"A86212420"},null]}'],
		['a list holding a text', '{"entities":["A86212420"]}'],
	])('refuses a watch list that is %s, as not a list of companies', async (_, body) => {
		sim().injectFault({
			method: 'GET',
			path: FOLLOWING,
			status: 200,
			body,
			contentType: 'application/json',
		});
		const result = await runLibreBor(sim(), { resource: 'watchlist', operation: 'getMany' });
		expect(result.error?.message).toBe(
			'LibreBOR answered GET /alerts/following/ with JSON of an unexpected shape instead of the expected JSON',
		);
	});

	it('limits the number of items when Return All is off', async () => {
		['A86212420', 'B64717838', 'J99216582'].forEach((nif) => sim().state.follow(nif));
		const result = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'getMany',
			returnAll: false,
			limit: 2,
		});
		expect(result.items).toHaveLength(2);
	});
});

describe('Watch List answers the contract does not show', () => {
	// How LibreBOR answers following a followed company, or unfollowing one that is not followed, is
	// not shown; it is what a retry meets after an answer lost on the way back. The list decides.
	const answers = [
		['409 "already done"', 409, '{"result":"error","message":"Already done."}'],
		['400 "already done"', 400, '{"result":"error","message":"Already done."}'],
		['200 with result error', 200, '{"result":"error","message":"Already done."}'],
		['200 with result success', 200, '{"result":"success"}'],
	] as const;

	// What a retry after a lost answer asks, the watch list it finds, and what it must report.
	const changes = [
		{
			operation: 'follow',
			nif: 'B64717838',
			followedBefore: false,
			change: 'followed',
			after: ['B64717838'],
		},
		{
			operation: 'unfollow',
			nif: 'J99216582',
			followedBefore: true,
			change: 'unfollowed',
			after: [],
		},
	] as const;

	describe.each(changes)('$operation', ({ operation, nif, followedBefore, change, after }) => {
		it.each(answers)(
			`says it ${change} a company whose answer was lost when the retry is answered %s`,
			async (_answer, status, body) => {
				if (followedBefore) sim().state.follow(nif);
				const path = `/v2/alerts/${operation}/`;
				sim().injectFault({ method: 'POST', path, afterHandling: true, status: 502 });
				sim().injectFault({ method: 'POST', path, status, body });
				const result = await runLibreBor(sim(), { resource: 'watchlist', operation, nif });
				expect(result.error).toBeUndefined();
				expect(jsonOf(result)).toEqual([{ result: 'success', nif, change }]);
				expect(followed()).toEqual(after);
			},
		);
	});

	// A refusal of the request itself (access, a server error, an answer of no kind, no answer)
	// says nothing about the list: the error stands, without a second look at the list.
	it.each([
		{ answer: '403', fault: { status: 403 }, error: '(403)' },
		{ answer: '500', fault: { status: 500, retryAfter: 0 }, error: '(500)' },
		{ answer: '300', fault: { status: 300 }, error: '(300)' },
		{ answer: 'nothing (the connection drops)', fault: { drop: true }, error: 'Could not reach' },
	])(
		'fails a change answered $answer without reading the watch list again',
		async ({ fault, error }) => {
			sim().injectFault({ method: 'POST', path: '/v2/alerts/follow/', times: Infinity, ...fault });
			const result = await runLibreBor(sim(), change('follow', 'B64717838'));
			expect(result.error?.message).toContain(error);
			expect(sim().requestsTo('GET', FOLLOWING)).toHaveLength(1);
		},
	);

	it('still fails a change LibreBOR refused, when the watch list shows it was not made', async () => {
		sim().injectFault({
			method: 'POST',
			path: '/v2/alerts/follow/',
			status: 400,
			body: '{"result":"error","message":"Unknown company."}',
		});
		const result = await runLibreBor(sim(), change('follow', 'B64717838'));
		expect(result.error?.message).toContain('(400)');
		expect(followed()).toEqual([]);
	});
});

describe('Watch List operations the node does not have', () => {
	it('refuses one by name before sending anything', async () => {
		const result = await runLibreBor(sim(), { resource: 'watchlist', operation: 'archive' });
		expect(result.error?.message).toBe('The operation "archive" of "watchlist" is not supported');
		expect(sim().requests).toEqual([]);
	});
});
