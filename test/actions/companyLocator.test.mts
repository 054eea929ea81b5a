import { describe, expect, it } from 'vitest';

import { registryCompany } from '../../tools/simulator/registryData.mts';
import { jsonOf, pairedItemsOf, runLibreBor, useSimulator } from '../support/libreBor.mts';

const sim = useSimulator();
const company = (mode: string, value: string) => ({ __rl: true as const, mode, value });
const BY_SLUG = '/v2/company/by-slug/';
const FOLLOW = '/v2/alerts/follow/';
const ORDER = '/v2/documents/order/';
const NO_NIF = company('slug', 'comercial-boletin-antiguo');
const formsSent = (path: string) =>
	sim()
		.requestsTo('POST', path)
		.map((request) => request.form);

describe('Version 3: Follow, Unfollow, Sync and Order take a company by name, NIF or slug', () => {
	it('follows a company picked by name, sending the NIF LibreBOR gives for its slug, once', async () => {
		const result = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'follow',
			company: company('list', 'brisas-del-llobregat'),
		});
		expect(jsonOf(result)).toEqual([{ result: 'success', nif: 'B64717838', change: 'followed' }]);
		expect(
			sim()
				.requestsTo('GET', BY_SLUG)
				.map((request) => request.path),
		).toEqual(['/v2/company/by-slug/brisas-del-llobregat/']);
		expect(formsSent(FOLLOW)).toEqual([{ nif: 'B64717838', type: 'company' }]);
	});

	it('orders by slug from an expression, paying once for the resolved NIF', async () => {
		const balance = sim().state.balance;
		const result = await runLibreBor(
			sim(),
			{
				resource: 'document',
				operation: 'order',
				company: company('slug', '={{ $json.entity_slug }}'),
				year: 2023,
			},
			{ items: [{ entity_slug: 'altamira-infraestructuras' }] },
		);
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ nif: 'A86212420', year: 2023, document_id: expect.any(String) }),
		]);
		expect(formsSent(ORDER)).toEqual([{ nif: 'A86212420', type: 'accounts', year: '2023' }]);
		expect(sim().state.balance).toBe(balance - sim().state.orderPrice);
	});

	it('refuses a company LibreBOR knows no NIF for, saying so, with nothing followed or ordered', async () => {
		const follow = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'follow',
			company: NO_NIF,
		});
		expect(follow.error?.message).toBe('LibreBOR knows no NIF for COMERCIAL BOLETÍN ANTIGUO SL');
		expect((follow.error as { description?: string }).description).toMatch(/nothing was sent/);
		// A NIF of spaces is none; a company without a name is named by its slug.
		const body = JSON.stringify({ company: { slug: 'comercial-boletin-antiguo', nif: '  ' } });
		sim().injectFault({ method: 'GET', path: `${BY_SLUG}*`, status: 200, body });
		const unnamed = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'follow',
			company: NO_NIF,
		});
		expect(unnamed.error?.message).toBe('LibreBOR knows no NIF for comercial-boletin-antiguo');
		const order = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'order',
			company: NO_NIF,
			year: 2023,
		});
		expect(order.error?.message).toBe('LibreBOR knows no NIF for COMERCIAL BOLETÍN ANTIGUO SL');
		expect(sim().requestsTo('POST', '/v2/')).toEqual([]);
		expect(sim().state.ordersReceived).toBe(0);
	});

	it('with Continue On Fail, orders the other items and pairs the refusal with its item', async () => {
		const result = await runLibreBor(
			sim(),
			{
				resource: 'document',
				operation: 'order',
				company: company('slug', '={{ $json.slug }}'),
				year: 2023,
			},
			{
				items: [{ slug: 'comercial-boletin-antiguo' }, { slug: 'brisas-del-llobregat' }],
				continueOnFail: true,
			},
		);
		expect(result.items[0].error?.message).toBe(
			'LibreBOR knows no NIF for COMERCIAL BOLETÍN ANTIGUO SL',
		);
		expect(result.items[1].json).toMatchObject({ nif: 'B64717838' });
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(formsSent(ORDER)).toEqual([{ nif: 'B64717838', type: 'accounts', year: '2023' }]);
	});

	it('refuses an invalid NIF before any request, and an unknown slug before any order', async () => {
		const invalid = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'order',
			company: company('nif', 'B64717839'),
			year: 2023,
		});
		expect(invalid.error?.message).toMatch(/The NIF "B64717839" is not valid/);
		expect(sim().requests).toEqual([]);
		const unknown = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'follow',
			company: company('slug', 'no-such-company'),
		});
		expect(unknown.error?.message).toBe(
			'LibreBOR has no company with the slug "no-such-company" (404)',
		);
		expect(sim().requestsTo('POST', '/v2/')).toEqual([]);
	});

	it("takes a search result's slug in By NIF and a NIF in By Slug, as a model filling the field ($fromAI) gives them", async () => {
		// n8n's editor moves an expression off From List to the first other mode, By NIF.
		const get = (mode: string) => ({
			resource: 'company',
			operation: 'get',
			company: company(mode, '={{ $json.company }}'),
		});
		const items = [{ company: 'brisas-del-llobregat' }, { company: 'es-b-64717838' }];
		for (const mode of ['nif', 'slug', 'list']) {
			sim().reset();
			const result = await runLibreBor(sim(), get(mode), { items });
			expect(jsonOf(result).map(({ nif }) => nif)).toEqual(['B64717838', 'B64717838']);
			expect(sim().requests.map((request) => request.path)).toEqual([
				'/v2/company/by-slug/brisas-del-llobregat/',
				'/v2/company/by-nif/B64717838/',
			]);
		}
		// A mistyped NIF is still refused as one in By NIF, before any request.
		sim().reset();
		for (const typo of [
			'B-6471783',
			'ESB6471783',
			'B64O17838',
			'BB4717838',
			'12345678-ZZ',
			'12345',
			'B12345',
			'1234',
		]) {
			const mistyped = await runLibreBor(sim(), get('nif'), { items: [{ company: typo }] });
			expect(mistyped.error?.message).toMatch(new RegExp(`^The NIF "${typo}" is not valid`));
		}
		expect(sim().requests).toEqual([]);
		// By Slug, one without a word in it is still a slug.
		const short = await runLibreBor(sim(), get('slug'), { items: [{ company: 'a1-b2' }] });
		expect(short.error?.message).toBe('LibreBOR has no company with the slug "a1-b2" (404)');
	});

	it.each(['H2O SL', 'AB 2000 SL', 'GT 4 SL'])(
		'takes the short slug of %s in By NIF as a slug, not as a mistyped NIF',
		async (name) => {
			const added = sim().state.registry.add(registryCompany(name, 'B64717838'));
			const result = await runLibreBor(
				sim(),
				{ resource: 'company', operation: 'get', company: company('nif', '={{ $json.company }}') },
				{ items: [{ company: added.slug }] },
			);
			expect(jsonOf(result)).toEqual([expect.objectContaining({ slug: added.slug })]);
		},
	);

	it("refuses a person's NIF for a company look-up, before any request, pointing to Person and NIF", async () => {
		for (const operation of ['get', 'getIncorporation']) {
			const result = await runLibreBor(sim(), {
				resource: 'company',
				operation,
				company: company('nif', '12345678z'),
			});
			expect(result.error?.message).toBe(
				'The NIF "12345678Z" is a person\'s (DNI), and the registry looks companies up by a company\'s NIF',
			);
			expect((result.error as { description?: string }).description).toMatch(
				/Person > Search, and NIF > Get Info/,
			);
		}
		expect(sim().requests).toEqual([]);
	});

	it('unfollows a company by NIF, normalised, without looking it up', async () => {
		sim().state.follow('B64717838');
		const result = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'unfollow',
			company: company('nif', 'es b-64717838'),
		});
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ nif: 'B64717838', change: 'unfollowed' }),
		]);
		expect(sim().requestsTo('GET', '/v2/company/')).toEqual([]);
	});

	it('syncs companies given by slug, and keeps a company without a NIF from unfollowing anything', async () => {
		sim().state.follow('J99216582');
		const sync = (slugs: string[]) =>
			runLibreBor(
				sim(),
				{
					resource: 'watchlist',
					operation: 'sync',
					company: company('slug', '={{ $json.slug }}'),
					unfollowOthers: true,
				},
				{ items: slugs.map((slug) => ({ slug })), continueOnFail: true },
			);
		const refused = await sync(['brisas-del-llobregat', 'comercial-boletin-antiguo']);
		expect(refused.items[1].error?.message).toBe(
			'LibreBOR knows no NIF for COMERCIAL BOLETÍN ANTIGUO SL',
		);
		expect(sim().requestsTo('POST', '/v2/alerts/unfollow/')).toEqual([]);
		expect(formsSent(FOLLOW)).toEqual([{ nif: 'B64717838', type: 'company' }]);
		const result = await sync(['brisas-del-llobregat', 'altamira-infraestructuras']);
		expect(jsonOf(result)).toEqual([
			{ nif: 'B64717838', name: 'BRISAS DEL LLOBREGAT SL', action: 'keep', applied: false },
			{ nif: 'A86212420', name: null, action: 'follow', applied: true },
			{ nif: 'J99216582', name: expect.any(String), action: 'unfollow', applied: true },
		]);
		expect(
			sim()
				.state.watchlist.map((entity) => entity.nif)
				.sort(),
		).toEqual(['A86212420', 'B64717838']);
	});
});
