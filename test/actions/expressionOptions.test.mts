import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { triggerSession } from '../../tools/engine/index.mts';
import { hintsOf, jsonOf, runLibreBor, useSimulator } from '../support/libreBor.mts';

// The editor enforces each option's minimum, but an expression can give anything. A typo there
// must never lift a limit or turn a timeout into "wait forever"; it must say which option to fix.
const sim = useSimulator({ documentSizeBytes: 1024 });

const followTwo = (options: INodeParameters): Promise<Awaited<ReturnType<typeof runLibreBor>>> =>
	runLibreBor(
		sim(),
		{ resource: 'watchlist', operation: 'follow', nif: '={{ $json.nif }}', options },
		{
			items: [{ nif: 'B64717838' }, { nif: 'A86212420' }],
		},
	);

const orderThree = (options: INodeParameters) =>
	runLibreBor(
		sim(),
		{ resource: 'document', operation: 'order', nif: '={{ $json.nif }}', year: 2023, options },
		{
			items: [{ nif: 'B64717838' }, { nif: 'A86212420' }, { nif: 'A08663619' }],
			continueOnFail: true,
		},
	);

const errorText = (result: Awaited<ReturnType<typeof runLibreBor>>) =>
	`${result.error?.message ?? ''} ${(result.error as { description?: string } | undefined)?.description ?? ''}`;

describe('Number options set by expressions', () => {
	it.each([
		['Parallel Requests', { concurrency: '={{ "many" }}' }],
		['Parallel Requests', { concurrency: '={{ 0 }}' }],
		['Parallel Requests', { concurrency: '={{ -4 }}' }],
		['Request Timeout (Seconds)', { timeout: '={{ 0 }}' }],
		['Request Timeout (Seconds)', { timeout: '={{ "" }}' }],
		['Time Budget (Minutes)', { budgetMinutes: '={{ -1 }}' }],
	])('refuses %s from %j, names the option and sends nothing', async (label, options) => {
		const result = await followTwo(options);
		expect(result.error?.message).toContain(`"${label}" must be a number of at least`);
		expect(errorText(result)).toContain('Nothing was sent');
		expect(sim().requests).toEqual([]);
		expect(sim().state.watchlist).toEqual([]);
	});

	it('lowers a Parallel Requests above the ceiling to the ceiling and still follows every item', async () => {
		const result = await followTwo({ concurrency: '={{ 5000 }}' });
		expect(jsonOf(result).map((json) => json.change)).toEqual(['followed', 'followed']);
	});

	it.each([
		['a number given as text, as an expression often gives it', '={{ "3" }}', '={{ "10" }}'],
		['the default for an expression that gives nothing (null)', '={{ null }}', '={{ null }}'],
	])('takes %s', async (_, concurrency, timeout) => {
		const result = await followTwo({ concurrency, timeout });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((json) => json.change)).toEqual(['followed', 'followed']);
	});

	it('refuses a Max Orders per Execution that is not a number before any order is sent', async () => {
		const result = await orderThree({ maxOrders: '={{ "ten" }}' });
		expect(result.error?.message).toContain(
			'"Max Orders per Execution" must be a number of at least 1',
		);
		expect(errorText(result)).toContain('No order was sent');
		expect(sim().requestsTo('POST', '/v2/documents/order/')).toEqual([]);
	});

	it.each([
		['Poll Interval (Seconds)', { waitForCompletion: true, pollInterval: '={{ 0 }}' }],
		['Max Wait (Seconds)', { download: true, maxWait: '={{ "soon" }}' }],
	])(
		'refuses %s for an order before the order is sent, not after it is paid for',
		async (label, options) => {
			const result = await orderThree(options);
			expect(result.items).toHaveLength(3);
			for (const item of result.items)
				expect(String(item.json.error)).toContain(`"${label}" must be a number`);
			expect(result.items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			expect(sim().requestsTo('POST', '/v2/documents/order/')).toEqual([]);
		},
	);

	it('waits for an order with a Poll Interval that is not a whole number of milliseconds', async () => {
		sim().state.documentProcessingMs = 300;
		const result = await orderThree({ waitForCompletion: true, pollInterval: '={{ 1.0005 }}' });
		expect(result.items.map((item) => item.json.error)).toEqual([undefined, undefined, undefined]);
		expect(result.items.map((item) => item.json.status)).toEqual([
			'completed',
			'completed',
			'completed',
		]);
	});

	it('downloads with a Request Timeout longer than a timer can hold, instead of timing out at once', async () => {
		const result = await orderThree({ download: true, pollInterval: 1, timeout: '={{ 3000000 }}' });
		expect(result.items.map((item) => item.json.error)).toEqual([undefined, undefined, undefined]);
		expect(result.items.map((item) => Object.keys(item.binary ?? {}))).toEqual([
			['data'],
			['data'],
			['data'],
		]);
	});

	it.each([
		['Mark as Read', 'markAsRead'],
		['Include Existing Alerts', 'includeExisting'],
	])(
		'refuses a trigger %s that is neither true nor false, before reading anything',
		async (label, option) => {
			const session = triggerSession(sim(), {
				parameters: { options: { [option]: '={{ "maybe" }}' } },
			});
			await expect(session.poll()).rejects.toThrow(`"${label}" must be true or false, not "maybe"`);
			expect(sim().requests).toEqual([]);
		},
	);

	it('refuses a trigger Request Timeout of 0 instead of waiting forever', async () => {
		sim().state.addAlert();
		const session = triggerSession(sim(), { parameters: { options: { timeout: '={{ 0 }}' } } });
		await expect(session.poll()).rejects.toThrow(
			'"Request Timeout (Seconds)" must be a number of at least 0.1',
		);
		expect(sim().requests).toEqual([]);
	});
});

describe('On/off options set by expressions', () => {
	const syncTwo = (unfollowOthers: unknown, options: INodeParameters = {}) =>
		runLibreBor(
			sim(),
			{
				resource: 'watchlist',
				operation: 'sync',
				nif: '={{ $json.nif }}',
				unfollowOthers: unfollowOthers as string,
				options,
			},
			{ items: [{ nif: 'B64717838' }, { nif: 'A86212420' }] },
		);
	const watchlist = (parameters: INodeParameters) =>
		runLibreBor(sim(), { resource: 'watchlist', operation: 'getMany', ...parameters });
	type Run = Awaited<ReturnType<typeof runLibreBor>>;

	/** Each option of the action node: a run with it set to `value`, and what that run does when it is off. */
	const TOGGLES: Array<[string, (value: string) => Promise<Run>, (run: Run) => void]> = [
		[
			'Return All',
			(returnAll) => watchlist({ returnAll, limit: 1 }),
			(run) => expect(jsonOf(run)).toHaveLength(1),
		],
		[
			'Company Details',
			(companyDetails) => watchlist({ returnAll: true, options: { companyDetails } }),
			(run) => expect(jsonOf(run).map(({ status }) => status)).toEqual([undefined, undefined]),
		],
		[
			'Company Status',
			(companyStatus) =>
				runLibreBor(sim(), {
					resource: 'person',
					operation: 'get',
					person: { __rl: true, mode: 'slug', value: 'ruiz-sanz-ana' },
					options: { companyStatus },
				}),
			(run) => expect(JSON.stringify(jsonOf(run))).not.toContain('company_status'),
		],
		[
			'Unfollow Others',
			(unfollowOthers) => syncTwo(unfollowOthers),
			(run) => expect(jsonOf(run).map(({ action }) => action)).not.toContain('unfollow'),
		],
		[
			'Dry Run',
			(dryRun) => syncTwo(false, { dryRun }),
			(run) => expect(hintsOf(run).join()).not.toMatch(/Dry Run: nothing was changed/),
		],
		[
			'Download',
			(download) => orderThree({ download }),
			(run) => expect(run.items.map((item) => item.binary)).toEqual(Array(3).fill(undefined)),
		],
		[
			'Wait for Completion',
			(waitForCompletion) => orderThree({ waitForCompletion }),
			(run) => expect(jsonOf(run).map(({ status }) => status)).toEqual(Array(3).fill(undefined)),
		],
	];
	const watching = () => ['J99216582', 'B64717838'].forEach((nif) => sim().state.follow(nif));

	it.each(TOGGLES)(
		'%s: an expression that gives nothing is off, as the option left unset',
		async (_, run, isOff) => {
			watching();
			isOff(await run('={{ $json.none }}'));
			isOff(await run('={{ null }}'));
		},
	);

	it.each(TOGGLES)(
		'%s: refuses another value than true or false, naming the option, before anything is done',
		async (label, run) => {
			watching();
			for (const [value, shown] of [
				['={{ "yes" }}', 'yes'],
				['={{ 1 }}', '1'],
			]) {
				const refused = await run(value);
				const error = refused.error ?? refused.items[0].error;
				expect(error?.message).toBe(`"${label}" must be true or false, not "${shown}"`);
				expect(error?.description).toMatch(`Turn "${label}" on or off in the node`);
			}
			expect(sim().requestsTo('POST', '/v2/')).toEqual([]);
		},
	);

	it('reads "true" and "false" as on and off, in any letter case: a Dry Run given as text changes nothing', async () => {
		sim().state.follow('J99216582');
		const dry = await syncTwo('={{ "true" }}', { dryRun: '={{ " TRUE " }}' });
		expect(dry.error).toBeUndefined();
		expect(jsonOf(dry).map(({ action, applied }) => [action, applied])).toEqual([
			['follow', false],
			['follow', false],
			['unfollow', false],
		]);
		expect(sim().requestsTo('POST', '/v2/')).toEqual([]);

		sim().state.follow('B64717838');
		const limited = await watchlist({ returnAll: '={{ "false" }}', limit: 1 });
		expect(jsonOf(limited)).toHaveLength(1);
	});
});

describe('The output field of a file, set by an expression', () => {
	it('refuses an empty name before anything is downloaded or paid for, and takes the name trimmed', async () => {
		const order = await orderThree({ download: true, binaryPropertyName: '={{ " " }}' });
		expect(order.items.map((item) => item.json.error)).toEqual(
			Array(3).fill('"Put Output File in Field" must be a field name, not " "'),
		);
		expect(order.items[2].error?.description).toMatch(/Nothing was sent for this item\.$/);
		expect(order.items[2].pairedItem).toEqual({ item: 2 });
		expect(sim().requests).toEqual([]);

		const placed = await orderThree({});
		const download = (binaryPropertyName: string) =>
			runLibreBor(sim(), {
				resource: 'document',
				operation: 'download',
				documentId: jsonOf(placed)[0].document_id as string,
				binaryPropertyName,
			});
		for (const [name, shown] of [
			['={{ "" }}', ''],
			['={{ 5 }}', '5'],
		])
			expect((await download(name)).error?.message).toBe(
				`"Put Output File in Field" must be a field name, not "${shown}"`,
			);
		expect(sim().requests.filter(({ origin }) => origin === 'download')).toEqual([]);
		expect(Object.keys((await download('={{ " accounts " }}')).items[0].binary ?? {})).toEqual([
			'accounts',
		]);
	});
});
