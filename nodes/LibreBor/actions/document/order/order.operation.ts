/**
 * Document > Order: the one operation that spends money. Read from here down:
 * - orderSettings.ts: what each item asks for, read for all of them before anything is sent;
 * - orderCap.ts: the caps;
 * - orderStores.ts: the one front for the three stores, and what it lets each order do;
 * - orderRun.ts, orderBatch.ts: every item's order claimed at once, the new ones recorded together
 *   and sent one at a time; placeOrderOnce.ts, placeOrder.ts: sending one, waiting for it,
 *   downloading it.
 *
 * What is guaranteed, and where:
 * - Never paid twice in one execution, across loops and runs of the node: an item repeating a
 *   NIF and year gets the first one's outcome (the execution ledger, orderStores.ts).
 * - Never paid twice by one workflow within the Order Memory window: in this process, in later
 *   executions on any worker, and in a retry (workflowOrderMemory.ts); one process sends an
 *   order that two of its executions claim at once only once (its claim, same file; the second
 *   waits for the first's answer without holding any order of its own, orderRun.ts).
 * - Never paid twice by attempts on other processes or workers at the same instant, or by one
 *   killed after sending: each records its orders in n8n's shared store first and sends only
 *   those whose record holds (orderIntents.ts, which says why recording a run's orders together
 *   and settling them once keeps that race closed; orderBatch.ts refuses the others).
 * - Orders go out one at a time, in input order, never retried, and none once the run has
 *   stopped (cancelled, or failed without "continue on fail"); the node answers only once no
 *   order can go out any more (execute, below).
 * - Caps and bad input refuse an execution before it spends anything: Max Orders per Execution
 *   and per Hour (orderCap.ts), an invalid item without "continue on fail" (execute). A failure
 *   after an order was placed names the document to download instead of ordering again
 *   (placeOrder.ts).
 * - Waiting and downloading never hold up an order or each other: every item's runs side by side
 *   with the rest, through the run's pacer (documentFlow.ts).
 */
import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { runAllItems } from '../../../run/itemRunner';
import { now } from '../../../time/clock';
import { FIRST_ACCOUNTS_YEAR } from '../../../parameters/validation';
import { HOUR_MS } from '../../../time/units';
import {
	byVersion,
	companyFields,
	fromVersion2,
	optionsCollection,
	pacedRequestOptions,
	timeoutOption,
} from '../../../descriptions';
import { readRunSettings } from '../../../parameters/runSettings';
import {
	binaryPropertyOption,
	maxDownloadSizeOption,
	maxWaitOption,
	pollIntervalOptions,
	withWaitBudget,
} from '../documentOptions';
import { DEFAULT_MAX_ORDERS, DEFAULT_MAX_ORDERS_PER_HOUR, enforceOrderCap } from './orderCap';
import { startOrders } from './orderRun';
import {
	DEFAULT_ORDER_MEMORY_HOURS,
	readItemOrders,
	readOrderLimit,
	type ItemOrder,
} from './orderSettings';
import { openOrderStores } from './orderStores';

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
		...pollIntervalOptions,
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
		// Version 2: how many requests the items' waits and downloads have in flight, and the time
		// budget under 429s. Version 1 runs on their defaults: its options are those it always had.
		...pacedRequestOptions.filter((option) => option !== timeoutOption).map(fromVersion2),
		timeoutOption,
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** The longest Max Wait of the items that wait, 0 when none does. */
function longestWaitMs(orders: Array<ItemOrder | Error>): number {
	return orders.reduce(
		(longest, order) =>
			order instanceof Error ? longest : Math.max(longest, order.completion?.wait.maxWaitMs ?? 0),
		0,
	);
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const settings = readRunSettings(this);
	const memoryHours = readOrderLimit(
		this,
		'options.orderMemoryHours',
		'Order Memory (Hours)',
		DEFAULT_ORDER_MEMORY_HOURS,
		0,
	);
	const stores = await openOrderStores(this, memoryHours * HOUR_MS);
	const orders = await readItemOrders(this, settings);
	enforceOrderCap(this, orders, stores);
	// Bad input costs nothing: without "continue on fail", an invalid item refuses the whole run.
	const invalid = orders.find((order) => order instanceof Error);
	if (invalid && !this.continueOnFail()) throw invalid;

	let placing: Promise<void> = Promise.resolve();
	try {
		return await runAllItems(this, withWaitBudget(settings, longestWaitMs(orders)), (run) => {
			const started = startOrders.call(this, run, orders, stores);
			placing = started.placing;
			return started.outputs;
		});
	} finally {
		// The node answers only once no order can go out any more.
		await placing;
	}
}
