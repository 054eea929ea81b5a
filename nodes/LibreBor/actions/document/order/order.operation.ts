/**
 * Document > Order: the one operation that spends money. Read from here down:
 * - orderSettings.ts: what each item asks for, read for all of them before anything is sent;
 * - orderCap.ts: Max Orders per Execution and per Hour, checked before anything is sent;
 * - orderLedger.ts: whether an order may be sent (claim, settle, forget), over the stores that
 *   keep an order from being paid twice, and why each is needed;
 * - orderRun.ts: each item's order, a repeat of this execution's or new;
 * - placeOrders.ts: the new orders claimed at once, sent one at a time in input order, never
 *   retried, none once the run has stopped;
 * - waitAndDownload.ts: waiting for an ordered document and downloading it, side by side with
 *   the other items' through the run's pacer.
 * The node answers only once no order can go out any more (execute, below).
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
import { openOrderLedger } from './orderLedger';

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
	const ledger = await openOrderLedger(this, memoryHours * HOUR_MS);
	const orders = await readItemOrders(this, settings);
	enforceOrderCap(this, orders, ledger);
	// Bad input costs nothing: without "continue on fail", an invalid item refuses the whole run.
	const invalid = orders.find((order) => order instanceof Error);
	if (invalid && !this.continueOnFail()) throw invalid;

	let placing: Promise<void> = Promise.resolve();
	try {
		return await runAllItems(this, withWaitBudget(settings, longestWaitMs(orders)), (run) => {
			const started = startOrders.call(this, run, orders, ledger);
			placing = started.placing;
			return started.outputs;
		});
	} finally {
		// The node answers only once no order can go out any more.
		await placing;
	}
}
