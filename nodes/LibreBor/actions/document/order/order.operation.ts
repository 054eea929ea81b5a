import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { pairWith, runForEachItem } from '../../../helpers/itemRunner';
import { orderKey, orderLedger } from './orderStores';
import { orderIntents } from './orderIntents';
import { byVersion } from '../../versionedFields';
import {
	companyFields,
	optionsCollection,
	readRequestOptions,
	timeoutOption,
} from '../../commonOptions';
import {
	binaryPropertyOption,
	maxDownloadSizeOption,
	maxWaitOption,
	pollIntervalOption,
} from '../documentOptions';
import { CREDENTIAL_TYPE } from '../../../transport/request';
import { orderMemory, type RememberedOrder } from './workflowOrderMemory';
import {
	DEFAULT_MAX_ORDERS,
	DEFAULT_MAX_ORDERS_PER_HOUR,
	DEFAULT_ORDER_MEMORY_HOURS,
	enforceOrderCap,
	readOrderInputs,
	readOrderLimit,
	type OrderInput,
} from './orderCap';
import { completeOrder } from './placeOrder';
import { placeOrderOnce } from './placeOrderOnce';

const showFor = { resource: ['document'], operation: ['order'] };

const yearField: INodeProperties = {
	displayName: 'Year',
	name: 'year',
	type: 'number',
	required: true,
	typeOptions: { minValue: 1990, numberPrecision: 0 },
	default: '',
	description:
		'Fiscal year of the annual accounts (balance sheet, income statement, equity changes and notes)',
};

export const description: INodeProperties[] = [
	{
		displayName:
			'Each order spends money from your LibreBOR prepaid balance (top it up in the user panel, Documents section). The same NIF and year ordered again by this workflow within the Order Memory window is not sent again: the earlier document is reused.',
		name: 'orderNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: showFor },
	},
	...companyFields(showFor, 'order the annual accounts of'),
	...byVersion(
		showFor,
		// Version 1's default, frozen: its saved workflows that left the year at 2025 do not store it.
		{ ...yearField, default: 2025 },
		// No default in version 2, as n8n's own nodes leave a required value empty: a year computed
		// when n8n starts would go unsaved too, and silently move an order to the next year.
		{ ...yearField, default: '', placeholder: `e.g. ${new Date().getFullYear() - 1}` },
	),
	optionsCollection(showFor, [
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
		binaryPropertyOption('binaryPropertyName'),
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

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestOptions(this);
	const ledger = orderLedger(this.getExecutionId());
	const memoryHours = readOrderLimit(
		this,
		'options.orderMemoryHours',
		'Order Memory (Hours)',
		DEFAULT_ORDER_MEMORY_HOURS,
		0,
	);
	const memory = await orderMemory(this, memoryHours * HOUR_MS, CREDENTIAL_TYPE);
	const intents = orderIntents(this, memory.account, memoryHours * HOUR_MS);
	const inputs = readOrderInputs(this);
	enforceOrderCap(this, inputs, ledger, memory);

	// Orders spend money: one at a time, each NIF and year at most once per execution, and
	// at most once per workflow within the Order Memory window.
	return await runForEachItem(this, 1, async (itemIndex) => {
		const input = inputs[itemIndex];
		if (input instanceof Error) throw input;
		const key = orderKey(input.nif, input.year);
		const earlier = ledger.outcomes.get(key);
		if (earlier) {
			const outcome = await earlier.catch((error: unknown) => {
				throw notSentAgain(this, error, input, itemIndex);
			});
			const reused: INodeExecutionData = { json: { ...outcome.json, reused_order: true } };
			if (outcome.binary) reused.binary = outcome.binary;
			return pairWith(itemIndex, [reused]);
		}
		let claim = memory.claim(key);
		while ('waitFor' in claim) {
			await claim.waitFor;
			claim = memory.claim(key);
		}
		const outcome =
			'remembered' in claim
				? completeOrder.call(
						this,
						input,
						rememberedJson(input, claim.remembered),
						itemIndex,
						timeoutMs,
					)
				: placeOrderOnce.call(this, { ...input, key }, itemIndex, timeoutMs, claim, {
						memory,
						intents,
					});
		if ('settle' in claim) ledger.sent++;
		ledger.outcomes.set(key, outcome);
		const { json, binary } = await outcome;
		return pairWith(itemIndex, [binary ? { json, binary } : { json }]);
	});
}

const HOUR_MS = 60 * 60 * 1000;

function rememberedJson(input: OrderInput, order: RememberedOrder): IDataObject {
	return {
		document_id: order.documentId,
		nif: input.nif,
		year: input.year,
		reused_order: true,
		ordered_at: new Date(order.orderedAt).toISOString(),
	};
}

/** An item repeating an order that failed earlier in this execution fails too, as itself. */
function notSentAgain(
	context: IExecuteFunctions,
	error: unknown,
	input: OrderInput,
	itemIndex: number,
) {
	const { message, description } = error as Error & { description?: string | null };
	return new NodeOperationError(context.getNode(), message, {
		itemIndex,
		description: `Not sent again: an earlier item of this execution ordered ${input.nif} ${input.year}, and that order failed as above.${description ? ` ${description}` : ''}`,
	});
}
