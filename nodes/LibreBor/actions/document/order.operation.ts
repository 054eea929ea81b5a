import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { orderAnnualAccounts } from '../../api/documents';
import { pairWith, runForEachItem } from '../../helpers/itemRunner';
import { orderKey, orderLedger, type OrderOutcome } from '../../helpers/orderLedger';
import { validateNif, validateYear } from '../../helpers/validation';
import { nifField, optionsCollection, readRequestOptions, timeoutOption } from '../commonOptions';
import { accountsFileName, downloadFinishedDocument, requireDownloadLink, waitUntilFinished } from './documentFlow';
import { binaryPropertyOption, maxWaitOption, pollIntervalOption, readWaitSettings } from './documentOptions';

export const DEFAULT_MAX_ORDERS = 10;

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

interface OrderInput {
	nif: string;
	year: number;
}

function readOrderInputs(context: IExecuteFunctions): Array<OrderInput | Error> {
	return context.getInputData().map((_, itemIndex) => {
		try {
			return {
				nif: validateNif(context.getNode(), context.getNodeParameter('nif', itemIndex), itemIndex),
				year: validateYear(context.getNode(), context.getNodeParameter('year', itemIndex), itemIndex),
			};
		} catch (error) {
			if (error instanceof NodeOperationError) return error;
			throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
		}
	});
}

function enforceOrderCap(context: IExecuteFunctions, inputs: Array<OrderInput | Error>, ledger: ReturnType<typeof orderLedger>) {
	const maxOrders = context.getNodeParameter('options.maxOrders', 0, DEFAULT_MAX_ORDERS) as number;
	const newKeys = new Set(
		inputs
			.filter((input): input is OrderInput => !(input instanceof Error))
			.map((input) => orderKey(input.nif, input.year))
			.filter((key) => !ledger.outcomes.has(key)),
	);
	if (ledger.sent + newKeys.size > maxOrders) {
		throw new NodeOperationError(
			context.getNode(),
			`This execution would place ${ledger.sent + newKeys.size} document orders, more than the limit of ${maxOrders}`,
			{
				description:
					'No order was sent by this run of the node. If that many orders are intended, raise "Max Orders per Execution" in the node options; otherwise check the input for a loop or duplicated rows.',
			},
		);
	}
}

async function placeOrder(this: IExecuteFunctions, input: OrderInput, itemIndex: number, timeoutMs: number): Promise<OrderOutcome> {
	const sendEmail = this.getNodeParameter('options.sendEmail', itemIndex, false) as boolean;
	const download = this.getNodeParameter('options.download', itemIndex, false) as boolean;
	const wait = download || (this.getNodeParameter('options.waitForCompletion', itemIndex, false) as boolean);
	const waitSettings = wait ? readWaitSettings(this, itemIndex) : undefined;
	const binaryPropertyName = this.getNodeParameter('options.binaryPropertyName', itemIndex, 'data') as string;

	const answer = await orderAnnualAccounts.call(this, { ...input, sendEmail }, { itemIndex, timeoutMs });
	const json: IDataObject = { ...answer, nif: input.nif, year: input.year };
	if (!waitSettings) return { json };

	const documentId = String(answer.document_id);
	try {
		const settings = { ...waitSettings, itemIndex, timeoutMs };
		const record = await waitUntilFinished.call(this, documentId, settings);
		json.status = record.status;
		json.download_link = requireDownloadLink.call(this, documentId, record, itemIndex);
		if (!download) return { json };

		const file = await downloadFinishedDocument.call(this, documentId, record, {
			itemIndex,
			timeoutMs,
			fallbackFileName: accountsFileName(input.nif, input.year, documentId),
		});
		return { json, binary: { [binaryPropertyName]: file } };
	} catch (error) {
		throw namingThePlacedOrder(this, error as Error & { description?: string }, documentId, itemIndex);
	}
}

/** After the order was placed, every failure must say which document to resume with, not to order again. */
function namingThePlacedOrder(
	context: IExecuteFunctions,
	error: Error & { description?: string },
	documentId: string,
	itemIndex: number,
): NodeOperationError {
	const resume = `The order was placed: do not order again. Get the file later with the Download operation and document ID ${documentId}.`;
	const message = error.message.includes(documentId)
		? error.message
		: `Document ${documentId} was ordered, but: ${error.message}`;
	return new NodeOperationError(context.getNode(), message, {
		itemIndex,
		description: error.description?.includes(`document ID ${documentId}`)
			? error.description
			: `${resume}${error.description ? ` ${error.description}` : ''}`,
	});
}

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
