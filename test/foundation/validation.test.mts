import {
	NodeApiError,
	NodeOperationError,
	type GenericValue,
	type INode,
	type INodeParameters,
} from 'n8n-workflow';
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { explainInvalidNif, normalizeNif } from '../../nodes/LibreBor/identifiers/nif.ts';
import { asNodeError } from '../../nodes/LibreBor/run/nodeErrors.ts';
import {
	jsonOf,
	pairedItemsOf,
	runLibreBor,
	useSimulator,
	withLatency,
} from '../support/libreBor.mts';
import { buildNodeUnderTest } from '../../tools/engine/nodeUnderTest.mts';

const sim = useSimulator();

const INVALID_NIFS = [
	'',
	'   ',
	'B6471783',
	'B647178380',
	'B64717839',
	'A8621242J',
	'P1234567J0',
	'P12345678',
	'12345678A',
	'X1234567A',
	'K1234567A',
	'I1234567A',
	'ÑB6471783',
	'B64717838; DROP',
	'../../etc',
];
const VALID_NIFS = [
	['B64717838', 'B64717838'],
	['A86212420', 'A86212420'],
	['J99216582', 'J99216582'],
	['es-b64717838', 'B64717838'],
	['B 6471 7838', 'B64717838'],
	['12345678Z', '12345678Z'],
	['X1234567L', 'X1234567L'],
	['Y1234567X', 'Y1234567X'],
];
const INVALID_ALERT_IDS = [
	'',
	'all',
	'123',
	'not-a-uuid',
	'3f1c2b9e-8d4a-4c6b-9f0e-2a7d5c1b8e3',
	'3f1c2b9e-8d4a-4c6b-9f0e-2a7d5c1b8e34/../all',
	'../all',
];
const INVALID_DOCUMENT_IDS = [
	'',
	' ',
	'../1',
	'a/b',
	'a?b=1',
	'a#b',
	'%2e%2e',
	'x'.repeat(200),
	'-leading-dash',
	'a b',
];
const INVALID_YEARS = [0, 1989, new Date().getUTCFullYear() + 1, 2023.5, -2023, 'abc', ''];

/** Runs one operation over many bad values, with continue-on-fail so that every item reports. */
async function refuseAll(parameters: INodeParameters, field: string, values: GenericValue[]) {
	const result = await runLibreBor(
		sim(),
		{ ...parameters, [field]: `={{ $json.value }}` },
		{
			items: values.map((value) => ({ value })),
			continueOnFail: true,
		},
	);
	expect(result.items).toHaveLength(values.length);
	expect(pairedItemsOf(result)).toEqual(values.map((_, item) => ({ item })));
	expect(sim().requests).toEqual([]);
	return result.items.map((item) => ({
		error: item.json.error,
		description: item.error?.description,
	}));
}

describe('input validation, before any request', () => {
	it('normalises and accepts valid NIFs (CIF, DNI, NIE)', () => {
		for (const [raw, normalised] of VALID_NIFS) {
			expect(normalizeNif(raw)).toBe(normalised);
			expect(explainInvalidNif(normalised)).toBeUndefined();
		}
	});

	it.each([
		['watchlist', 'follow'],
		['watchlist', 'unfollow'],
	])('refuses every invalid NIF for %s > %s', async (resource, operation) => {
		const outputs = await refuseAll({ resource, operation }, 'nif', INVALID_NIFS);
		for (const output of outputs) {
			expect(output.error).toMatch(/NIF .*(is empty|is not valid)/);
			expect(output.description).toMatch(/B64717838/);
		}
	});

	it('refuses every invalid NIF for a document order, spending nothing', async () => {
		const outputs = await refuseAll(
			{ resource: 'document', operation: 'order', year: 2023 },
			'nif',
			INVALID_NIFS,
		);
		expect(outputs.every((output) => /NIF/.test(String(output.error)))).toBe(true);
		expect(sim().state.ordersReceived).toBe(0);
	});

	it("refuses a person's NIF for a document order, spending nothing: only companies file accounts", async () => {
		const people: Array<[string, string]> = [
			['12345678Z', 'DNI'],
			['X1234567L', 'NIE'],
			['Y1234567X', 'NIE'],
			['Z1234567R', 'NIE'],
			['K1234567L', 'K, L or M NIF'],
			['L1234567L', 'K, L or M NIF'],
			['M1234567L', 'K, L or M NIF'],
			// Its check letter an X: a K, L or M NIF still, not an NIE.
			['K0000010X', 'K, L or M NIF'],
		];
		const outputs = await refuseAll(
			{ resource: 'document', operation: 'order', year: 2023 },
			'nif',
			people.map(([nif]) => nif.toLowerCase()),
		);
		expect(outputs.map(({ error }) => error)).toEqual(
			people.map(
				([nif, kind]) =>
					`The NIF "${nif}" is a person's (${kind}), and only companies file annual accounts`,
			),
		);
		for (const { description } of outputs)
			expect(description).toMatch(/^No order was sent\. Enter the company's NIF \(CIF\)/);
	});

	it('refuses every invalid year for a document order', async () => {
		const outputs = await refuseAll(
			{ resource: 'document', operation: 'order', nif: 'B64717838' },
			'year',
			INVALID_YEARS,
		);
		for (const output of outputs) {
			expect(output.error).toMatch(/The year .* is not valid/);
			expect(output.description).toMatch(/from 1990 to \d{4}/);
		}
	});

	it('refuses every malformed alert ID', async () => {
		const outputs = await refuseAll(
			{ resource: 'alert', operation: 'markAsRead' },
			'alertId',
			INVALID_ALERT_IDS,
		);
		for (const output of outputs) expect(output.error).toMatch(/The alert ID .* is not valid/);
	});

	it.each(['get', 'download'])(
		'refuses every unsafe document ID for document > %s',
		async (operation) => {
			const outputs = await refuseAll(
				{ resource: 'document', operation, binaryPropertyName: 'data' },
				'documentId',
				INVALID_DOCUMENT_IDS,
			);
			for (const output of outputs) expect(output.error).toMatch(/The document ID .* is not valid/);
		},
	);
});

describe('NIF rules: each kind of identifier with its own check character', () => {
	it.each([
		['K1234567L', undefined],
		['L7654321J', undefined],
		['M2345678T', undefined],
		['K1234567A', 'its check letter does not match'],
		['P1234567D', undefined],
		['P12345674', 'its CIF check character does not match'],
		['G1234567D', undefined],
		['G12345674', undefined],
		['G12345670', 'its CIF check character does not match'],
		['I1234567A', expect.stringMatching(/^it is not a DNI/)],
		['B6471783', 'it has 8 characters instead of 9'],
	])('judges %s: %s', (nif, problem) => {
		expect(explainInvalidNif(nif)).toEqual(problem);
	});

	it.each([
		['ES-B6471783', 'it has 10 characters instead of 9'],
		['B64717838XY', 'it has 11 characters instead of 9'],
	])(
		'removes an ES prefix only from an 11-character NIF, and says how long the rest is: %s',
		async (nif, problem) => {
			const result = await runLibreBor(sim(), { resource: 'watchlist', operation: 'follow', nif });
			expect(result.error?.message).toBe(`The NIF "${nif}" is not valid: ${problem}`);
			expect(sim().requests).toEqual([]);
		},
	);
});

describe('years and document URLs', () => {
	it.each([1990, new Date().getUTCFullYear(), '2023', ' 2023 '])(
		'orders the accounts of year %j',
		async (year) => {
			const result = await runLibreBor(
				sim(),
				{
					resource: 'document',
					operation: 'order',
					nif: 'B64717838',
					year: '={{ $json.year }}',
				},
				{ items: [{ year }] },
			);
			expect(result.error).toBeUndefined();
			expect(sim().state.ordersReceived).toBe(1);
		},
	);

	it.each([1989, ' 1989 '])('quotes the refused year %j without spaces', async (year) => {
		const result = await runLibreBor(
			sim(),
			{ resource: 'document', operation: 'order', nif: 'B64717838', year: '={{ $json.year }}' },
			{ items: [{ year }] },
		);
		expect(result.error?.message).toBe('The year "1989" is not valid');
		expect(sim().requests).toEqual([]);
	});

	it.each([
		'https://librebor.me/v2/documents/',
		'not a url',
		// Badly percent-encoded.
		'https://librebor.me/v2/documents/%E0%A4%A/',
	])('says no document ID can be read from the URL %j, and asks for nothing', async (value) => {
		const result = await runLibreBor(sim(), {
			resource: 'document',
			operation: 'get',
			documentId: { __rl: true, mode: 'url', value },
		});
		expect(result.error?.message).toMatch(/^No document ID can be read from the URL/);
		expect(sim().requests).toEqual([]);
	});
});

describe('number options from expressions', () => {
	it.each([
		['={{ true }}', 'not "true"'],
		[`={{ "${'9'.repeat(5)}${'x'.repeat(60)}" }}`, `not "99999${'x'.repeat(35)}"`],
	])('refuses Parallel Requests %s, quoting at most 40 characters', async (concurrency, quoted) => {
		const result = await runLibreBor(sim(), {
			resource: 'watchlist',
			operation: 'follow',
			nif: 'B64717838',
			options: { concurrency },
		});
		expect(result.error?.message).toBe(
			`"Parallel Requests" must be a number of at least 1, ${quoted}`,
		);
		expect(sim().requests).toEqual([]);
	});
});

describe('continue on fail', () => {
	it('turns one bad NIF among valid ones into one error item, the others followed, each paired with its input', async () => {
		const result = await runLibreBor(
			sim(),
			{ resource: 'watchlist', operation: 'follow', nif: '={{ $json.nif }}' },
			{
				items: [{ nif: 'A86212420' }, { nif: 'B00000001' }, { nif: 'J99216582' }],
				continueOnFail: true,
			},
		);
		expect(result.error).toBeUndefined();
		const outputs = jsonOf(result);
		expect(outputs[0]).toMatchObject({ nif: 'A86212420', change: 'followed' });
		expect(outputs[1].error).toMatch(/The NIF "B00000001" is not valid/);
		expect(result.items[1].error?.description).toMatch(/Spanish tax identifier/);
		expect(outputs[2]).toMatchObject({ nif: 'J99216582', change: 'followed' });
		expect(pairedItemsOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(
			sim()
				.state.watchlist.map((entity) => entity.nif)
				.sort(),
		).toEqual(['A86212420', 'J99216582']);
	});

	it("fails only the item whose NIF expression n8n cannot resolve, with n8n's message; without continue on fail, the run, naming it", async () => {
		const follow = {
			resource: 'watchlist',
			operation: 'follow',
			nif: "={{ $json.nif ?? $('Missing').item.json.nif }}",
		};
		const items = [{ nif: 'A86212420' }, {}, { nif: 'J99216582' }];
		const kept = await runLibreBor(sim(), follow, { items, continueOnFail: true });
		expect(jsonOf(kept).map((output) => output.error)).toEqual([
			undefined,
			"Referenced node doesn't exist",
			undefined,
		]);
		expect(pairedItemsOf(kept)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const failed = await runLibreBor(sim(), follow, { items: items.slice(1) });
		expect(failed.error?.message).toBe("Referenced node doesn't exist");
		expect(failed.error?.context.itemIndex).toBe(0);
	});

	it('keeps ordering the other documents when one NIF is bad', async () => {
		const result = await runLibreBor(
			sim(),
			{ resource: 'document', operation: 'order', nif: '={{ $json.nif }}', year: 2023 },
			{
				items: [{ nif: 'B64717838' }, { nif: 'nonsense' }, { nif: 'A86212420' }],
				continueOnFail: true,
			},
		);
		expect(sim().state.ordersReceived).toBe(2);
		expect(jsonOf(result).map((output) => Boolean(output.error))).toEqual([false, true, false]);
	});

	it('stops at the first bad item without continue on fail, naming the item', async () => {
		await expectNonsenseNifReported(['nonsense', 'A86212420'], 0);
	});

	it('reports the bad item, not the earlier one its failure stopped while in flight', async () => {
		await withLatency(
			sim(),
			300,
			async () => await expectNonsenseNifReported(['A86212420', 'nonsense'], 1),
		);
	});

	it('sends no retry for an item waiting out a 429 once another item has failed the run', async () => {
		const [failing, waiting] = [sim().state.addAlert(), sim().state.addAlert()];
		const markPath = (id: string) => `/v2/alerts/mark_as_read/${id}/`;
		sim().injectFault({ path: markPath(failing.id), status: 400, delayMs: 300 });
		sim().injectFault({ path: markPath(waiting.id), status: 429, retryAfter: 1 });
		const result = await runLibreBor(
			sim(),
			{ resource: 'alert', operation: 'markAsRead', alertId: '={{ $json.id }}' },
			{ items: [{ id: failing.id }, { id: waiting.id }] },
		);
		expect(result.error?.message).toMatch(/unexpected status \(400\)/);
		// Past the 1 s the throttled item waited: its retry would have been sent by now.
		await sleep(1_500);
		expect(sim().requestsTo('GET', markPath(waiting.id))).toHaveLength(1);
	});
});

describe("an item's failure as n8n's node error", () => {
	const node: INode = buildNodeUnderTest({ nodeType: new LibreBor(), parameters: {} });

	it("keeps n8n's node errors as they are, and wraps anything else with the item it failed at", () => {
		const apiError = new NodeApiError(node, { message: 'refused' });
		const operationError = new NodeOperationError(node, 'not valid');
		expect(asNodeError(node, apiError, 2)).toBe(apiError);
		expect(asNodeError(node, operationError, 2)).toBe(operationError);
		const wrapped = asNodeError(node, new TypeError('no body'), 3);
		expect(wrapped).toBeInstanceOf(NodeOperationError);
		expect(wrapped.message).toBe('no body');
		expect(wrapped.context.itemIndex).toBe(3);
		// A failed poll of the trigger has no item.
		expect(asNodeError(node, new TypeError('no body')).context.itemIndex).toBeUndefined();
	});
});

/** Follows each NIF in turn, without continue on fail: the run fails on "nonsense", at that item. */
async function expectNonsenseNifReported(nifs: string[], itemIndex: number) {
	const result = await runLibreBor(
		sim(),
		{ resource: 'watchlist', operation: 'follow', nif: '={{ $json.nif }}' },
		{ items: nifs.map((nif) => ({ nif })) },
	);
	expect(result.error?.message).toMatch(/The NIF "nonsense" is not valid/);
	expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(itemIndex);
}
