import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { orderKey, type OrderLedger } from './orderLedger';
import { readOrderLimit, type ItemOrder } from './orderSettings';

export const DEFAULT_MAX_ORDERS = 10;
/** An AI agent decides by itself how often to call a tool: it gets a much smaller budget. */
const DEFAULT_MAX_ORDERS_AS_TOOL = 1;
export const DEFAULT_MAX_ORDERS_PER_HOUR = 20;

/** n8n runs a node as an AI agent's tool under a type name ending in "Tool" (`libreBorTool`). */
function isToolMode(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * Refuses, before anything is spent, an execution that would place more orders than allowed:
 * in this execution (Max Orders per Execution) or by this workflow in the last hour
 * (Max Orders per Hour).
 */
export function enforceOrderCap(
	context: IExecuteFunctions,
	orders: Array<ItemOrder | Error>,
	ledger: OrderLedger,
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
		orders
			.filter((order): order is ItemOrder => !(order instanceof Error))
			.map((order) => orderKey(order.input))
			.filter((key) => ledger.isNew(key)),
	);
	const refuse = (message: string, option: string, otherwise: string) =>
		new NodeOperationError(context.getNode(), message, {
			description: `No order was sent by this run of the node. If that many orders are intended, raise "${option}" in the node options; otherwise check ${otherwise}.`,
		});
	const placed = ledger.sentThisExecution + newKeys.size;
	if (placed > maxOrders) {
		throw refuse(
			`This execution would place ${placed} document orders, more than the limit of ${maxOrders}`,
			'Max Orders per Execution',
			'the input for a loop or duplicated rows',
		);
	}
	const lastHour = ledger.placedInLastHour();
	if (newKeys.size > 0 && lastHour + newKeys.size > maxPerHour) {
		throw refuse(
			`This workflow has placed ${lastHour} document orders in the last hour; ${newKeys.size} more would pass the limit of ${maxPerHour} per hour`,
			'Max Orders per Hour',
			'what runs this workflow so often (a trigger, a loop, a sub-workflow per item)',
		);
	}
}
