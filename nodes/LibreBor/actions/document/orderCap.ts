import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { orderKey, type orderLedger } from '../../helpers/orderLedger';
import { validateNif, validateYear } from '../../helpers/validation';

export const DEFAULT_MAX_ORDERS = 10;

export interface OrderInput {
	nif: string;
	year: number;
}

export function readOrderInputs(context: IExecuteFunctions): Array<OrderInput | Error> {
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

/** Refuses, before anything is spent, an execution that would place more orders than allowed. */
export function enforceOrderCap(context: IExecuteFunctions, inputs: Array<OrderInput | Error>, ledger: ReturnType<typeof orderLedger>) {
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
