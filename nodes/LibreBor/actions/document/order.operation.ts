import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { pairWith, runForEachItem } from '../../helpers/itemRunner';
import { orderKey, orderLedger } from '../../helpers/orderLedger';
import { nifField, optionsCollection, readRequestOptions, timeoutOption } from '../commonOptions';
import { binaryPropertyOption, maxWaitOption, pollIntervalOption } from './documentOptions';
import { DEFAULT_MAX_ORDERS, enforceOrderCap, readOrderInputs } from './orderCap';
import { placeOrder } from './placeOrder';

const showFor = { resource: ['document'], operation: ['order'] };

export const description: INodeProperties[] = [
	{
		displayName:
			'Each order spends your LibreBOR prepaid balance (top it up in the user panel, Documents section). Identical orders in one execution are sent once.',
		name: 'orderNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: showFor },
	},
	nifField(showFor, 'order the annual accounts of'),
	{
		displayName: 'Year',
		name: 'year',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1990, numberPrecision: 0 },
		default: 2025,
		description: 'Fiscal year of the annual accounts (balance sheet, income statement, equity changes and notes)',
		displayOptions: { show: showFor },
	},
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
				description: 'Whether to wait until the document is ready and output its status and download link',
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
			binaryPropertyOption('binaryPropertyName'),
			{
				displayName: 'Max Orders per Execution',
				name: 'maxOrders',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_MAX_ORDERS,
				description:
					'Safety limit: the node refuses, before spending anything, to place more orders than this in one workflow execution',
			},
			timeoutOption,
		]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestOptions(this);
	const ledger = orderLedger(this.getExecutionId());
	const inputs = readOrderInputs(this);
	enforceOrderCap(this, inputs, ledger);

	// Orders spend money: one at a time, each NIF and year at most once per execution.
	return await runForEachItem(this, 1, async (itemIndex) => {
		const input = inputs[itemIndex];
		if (input instanceof Error) throw input;
		const key = orderKey(input.nif, input.year);
		const earlier = ledger.outcomes.get(key);
		if (earlier) {
			const outcome = await earlier;
			const reused: INodeExecutionData = { json: { ...outcome.json, reused_order: true } };
			if (outcome.binary) reused.binary = outcome.binary;
			return pairWith(itemIndex, [reused]);
		}
		ledger.sent++;
		const outcome = placeOrder.call(this, input, itemIndex, timeoutMs);
		ledger.outcomes.set(key, outcome);
		const { json, binary } = await outcome;
		return pairWith(itemIndex, [binary ? { json, binary } : { json }]);
	});
}
