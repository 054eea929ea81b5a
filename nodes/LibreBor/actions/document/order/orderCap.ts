import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { orderKey, type orderLedger } from './orderStores';
import { readNif } from '../../../helpers/identifierParameters';
import { readNumericOption } from '../../../helpers/numericOption';
import { validateYear } from '../../../helpers/validation';
import { readCompletionSettings } from './placeOrder';
import type { OrderMemory } from './workflowOrderMemory';

export const DEFAULT_MAX_ORDERS = 10;
/** An AI agent decides by itself how often to call a tool: it gets a much smaller budget. */
export const DEFAULT_MAX_ORDERS_AS_TOOL = 1;
export const DEFAULT_MAX_ORDERS_PER_HOUR = 20;
export const DEFAULT_ORDER_MEMORY_HOURS = 24;

export interface OrderInput {
	nif: string;
	year: number;
}

/** n8n runs a node as an AI agent's tool under a type name ending in "Tool" (`libreBorTool`). */
export function isToolMode(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

export function readOrderInputs(context: IExecuteFunctions): Array<OrderInput | Error> {
	return context.getInputData().map((_, itemIndex) => {
		try {
			const input = {
				nif: readNif(context, itemIndex),
				year: validateYear(
					context.getNode(),
					context.getNodeParameter('year', itemIndex),
					itemIndex,
				),
			};
			readCompletionSettings(context, itemIndex);
			return input;
		} catch (error) {
			if (error instanceof NodeOperationError) return error;
			throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
		}
	});
}

/** A limit set by an expression must still be a number: a typo must never lift it. */
export function readOrderLimit(
	context: IExecuteFunctions,
	parameter: string,
	label: string,
	fallback: number,
	minimum: number,
): number {
	return readNumericOption(context.getNode(), context.getNodeParameter(parameter, 0, fallback), {
		label,
		fallback,
		minimum,
		consequence: 'No order was sent.',
	});
}

/**
 * Refuses, before anything is spent, an execution that would place more orders than allowed:
 * in this execution (Max Orders per Execution) or by this workflow in the last hour
 * (Max Orders per Hour).
 */
export function enforceOrderCap(
	context: IExecuteFunctions,
	inputs: Array<OrderInput | Error>,
	ledger: ReturnType<typeof orderLedger>,
	memory: OrderMemory,
) {
	const maxOrders = readOrderLimit(
		context,
		'options.maxOrders',
		'Max Orders per Execution',
		isToolMode(context) ? DEFAULT_MAX_ORDERS_AS_TOOL : DEFAULT_MAX_ORDERS,
		1,
	);
	const maxPerHour = readOrderLimit(
		context,
		'options.maxOrdersPerHour',
		'Max Orders per Hour',
		DEFAULT_MAX_ORDERS_PER_HOUR,
		1,
	);
	const newKeys = new Set(
		inputs
			.filter((input): input is OrderInput => !(input instanceof Error))
			.map((input) => orderKey(input.nif, input.year))
			.filter((key) => !ledger.outcomes.has(key) && !memory.find(key)),
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
	const lastHour = memory.placedInLastHour();
	if (newKeys.size > 0 && lastHour + newKeys.size > maxPerHour) {
		throw new NodeOperationError(
			context.getNode(),
			`This workflow has placed ${lastHour} document orders in the last hour; ${newKeys.size} more would pass the limit of ${maxPerHour} per hour`,
			{
				description:
					'No order was sent by this run of the node. If that many orders are intended, raise "Max Orders per Hour" in the node options; otherwise check what runs this workflow so often (a trigger, a loop, a sub-workflow per item).',
			},
		);
	}
}
