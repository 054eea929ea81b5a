import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { readNif } from '../../../helpers/identifierParameters';
import { readNumericOption } from '../../../helpers/numericOption';
import { validateYear } from '../../../helpers/validation';
import { readMaxDownloadBytes, readWaitSettings } from '../documentOptions';

export const DEFAULT_ORDER_MEMORY_HOURS = 24;

export interface OrderInput {
	nif: string;
	year: number;
}

/** Every item's order, read before any is sent so that a bad value costs nothing. */
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

/** What to do once an order is placed: wait for it, download it. */
export function readCompletionSettings(context: IExecuteFunctions, itemIndex: number) {
	const download = context.getNodeParameter('options.download', itemIndex, false) as boolean;
	const wait =
		download ||
		(context.getNodeParameter('options.waitForCompletion', itemIndex, false) as boolean);
	return {
		download,
		waitSettings: wait ? readWaitSettings(context, itemIndex) : undefined,
		maxBytes: download ? readMaxDownloadBytes(context, itemIndex) : 0,
		binaryPropertyName: context.getNodeParameter(
			'options.binaryPropertyName',
			itemIndex,
			'data',
		) as string,
	};
}
