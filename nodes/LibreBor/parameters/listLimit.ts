import type { IExecuteFunctions } from 'n8n-workflow';

import { limitField } from '../descriptions/listFields';
import { readNumericOption } from './numericOption';
import { readToggleParameter } from './toggleOption';

/** How many results the user asked for: everything, or the Limit. */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number {
	const returnAll = readToggleParameter(
		context,
		'returnAll',
		{ label: 'Return All', fallback: false, consequence: 'Nothing was read.' },
		itemIndex,
	);
	if (returnAll) return Infinity;
	const limit = readNumericOption(
		context.getNode(),
		context.getNodeParameter('limit', itemIndex),
		{
			label: limitField.displayName,
			fallback: limitField.default as number,
			minimum: 1,
			consequence: 'Nothing was read.',
		},
		itemIndex,
	);
	return Math.floor(limit);
}
