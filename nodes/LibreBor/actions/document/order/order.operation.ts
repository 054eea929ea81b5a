/**
 * Document > Order: the one operation that spends money. Read from here down:
 * - orderSettings.ts: what each item asks for, read for all of them before anything is sent;
 * - orderCap.ts: the caps;
 * - orderStores.ts: the one front for the three stores, and what it lets each order do;
 * - placeOrderOnce.ts, placeOrder.ts: sending a new order once, waiting for it, downloading it.
 *
 * What is guaranteed, and where:
 * - Never paid twice in one execution, across loops and runs of the node: an item repeating a
 *   NIF and year gets the first one's outcome (the execution ledger, orderStores.ts).
 * - Never paid twice by one workflow within the Order Memory window: in this process, in later
 *   executions on any worker, and in a retry (workflowOrderMemory.ts); one process sends an
 *   order that two of its executions claim at once only once (its claim, same file).
 * - Never paid twice by attempts on other processes or workers at the same instant, or by one
 *   killed after sending: each records the order in n8n's shared store first and sends only if
 *   its record holds (orderIntents.ts; placeOrderOnce.ts refuses otherwise).
 * - Caps refuse an execution before it spends anything: Max Orders per Execution and per Hour
 *   (orderCap.ts). A failure after an order was placed names the document to download instead
 *   of ordering again (placeOrder.ts).
 */
import {
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { pairWith, runForEachItem } from '../../../helpers/itemRunner';
import { now } from '../../../helpers/clock';
import { FIRST_ACCOUNTS_YEAR } from '../../../helpers/validation';
import { HOUR_MS } from '../../../helpers/units';
import {
	byVersion,
	companyFields,
	optionsCollection,
	readOneItemAtATimeSettings,
	timeoutOption,
} from '../../../descriptions';
import {
	binaryPropertyOption,
	maxDownloadSizeOption,
	maxWaitOption,
	pollIntervalOption,
} from '../documentOptions';
import { DEFAULT_MAX_ORDERS, DEFAULT_MAX_ORDERS_PER_HOUR, enforceOrderCap } from './orderCap';
import {
	DEFAULT_ORDER_MEMORY_HOURS,
	readItemOrders,
	readOrderLimit,
	type OrderJob,
} from './orderSettings';
import { openOrderStores, orderKey, type OrderClaim, type OrderOutcome } from './orderStores';
import { completeOrder } from './placeOrder';
import { placeOrderOnce } from './placeOrderOnce';

const displayOptions = { show: { resource: ['document'], operation: ['order'] } };

const yearField: INodeProperties = {
	displayName: 'Year',
	name: 'year',
	type: 'number',
	required: true,
	typeOptions: { minValue: FIRST_ACCOUNTS_YEAR, numberPrecision: 0 },
	default: '',
	description:
		'Fiscal year of the annual accounts (balance sheet, income statement, equity changes and notes)',
};

const properties: INodeProperties[] = [
	{
		displayName:
			'Each order spends money from your LibreBOR prepaid balance (top it up in the user panel, Documents section). The same NIF and year ordered again by this workflow within the Order Memory window is not sent again: the earlier document is reused.',
		name: 'orderNotice',
		type: 'notice',
		default: '',
	},
	...companyFields('order the annual accounts of'),
	...byVersion(
		// Version 1's default, frozen: its saved workflows that left the year at 2025 do not store it.
		{ ...yearField, default: 2025 },
		// No default in version 2, as n8n's own nodes leave a required value empty: a year computed
		// when n8n starts would go unsaved too, and silently move an order to the next year.
		{ ...yearField, default: '', placeholder: `e.g. ${new Date(now()).getFullYear() - 1}` },
	),
	optionsCollection([
		{
			displayName: 'Send Email',
			name: 'sendEmail',
			type: 'boolean',
			default: false,
			description: 'Whether LibreBOR should also e-mail you about the ordered document',
		},
		{
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			default: false,
			description:
				'Whether to wait until the document is ready and output its status and download link',
		},
		{
			displayName: 'Download',
			name: 'download',
			type: 'boolean',
			default: false,
			description: 'Whether to wait until the document is ready and output the file as binary data',
		},
		pollIntervalOption,
		maxWaitOption,
		maxDownloadSizeOption,
		binaryPropertyOption,
		{
			displayName: 'Max Orders per Execution',
			name: 'maxOrders',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_MAX_ORDERS,
			description:
				'Safety limit: the node refuses, before spending anything, to place more orders than this in one workflow execution. Defaults to 1 when an AI agent uses the node as a tool.',
		},
		{
			displayName: 'Max Orders per Hour',
			name: 'maxOrdersPerHour',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_MAX_ORDERS_PER_HOUR,
			description:
				'Safety limit across executions: the node refuses, before spending anything, to let this workflow place more orders than this in any rolling hour',
		},
		{
			displayName: 'Order Memory (Hours)',
			name: 'orderMemoryHours',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_ORDER_MEMORY_HOURS,
			description:
				'An order for a NIF and year that this workflow placed within this many hours is reused (reused_order: true, the same document_id) instead of being placed and paid again, also by a later execution or a retry. 0 turns this off.',
		},
		timeoutOption,
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	// Orders spend money: one at a time.
	const settings = readOneItemAtATimeSettings(this);
	const memoryHours = readOrderLimit(
		this,
		'options.orderMemoryHours',
		'Order Memory (Hours)',
		DEFAULT_ORDER_MEMORY_HOURS,
		0,
	);
	const stores = await openOrderStores(this, memoryHours * HOUR_MS);
	const orders = readItemOrders(this);
	enforceOrderCap(this, orders, stores);

	return await runForEachItem(this, settings, async (item) => {
		const order = orders[item.itemIndex];
		if (order instanceof Error) throw order;
		const job: OrderJob = { ...order, item };
		const key = orderKey(job.input);
		const claim = await stores.claim(key);
		const outcome = outcomeOf.call(this, claim, job);
		stores.keep(claim, key, outcome);
		const { json, binary } = await outcome;
		return pairWith(item.itemIndex, [binary ? { json, binary } : { json }]);
	});
}

async function outcomeOf(
	this: IExecuteFunctions,
	claim: OrderClaim,
	job: OrderJob,
): Promise<OrderOutcome> {
	const { input } = job;
	switch (claim.kind) {
		case 'repeat': {
			const { json, binary } = await claim.outcome.catch((error: unknown) => {
				throw notSentAgain(this, error, job);
			});
			return { json: { ...json, reused_order: true }, binary };
		}
		case 'reuse': {
			const json: IDataObject = {
				document_id: claim.order.documentId,
				nif: input.nif,
				year: input.year,
				reused_order: true,
				ordered_at: new Date(claim.order.orderedAt).toISOString(),
			};
			return await completeOrder.call(this, job, json);
		}
		case 'send':
			return await placeOrderOnce.call(this, job, claim);
	}
}

/** An item repeating an order that failed earlier in this execution fails too, as itself. */
function notSentAgain(context: IExecuteFunctions, error: unknown, job: OrderJob) {
	const { message, description } = error as Error & { description?: string | null };
	const { nif, year } = job.input;
	return new NodeOperationError(context.getNode(), message, {
		itemIndex: job.item.itemIndex,
		description: `Not sent again: an earlier item of this execution ordered ${nif} ${year}, and that order failed as above.${description ? ` ${description}` : ''}`,
	});
}
