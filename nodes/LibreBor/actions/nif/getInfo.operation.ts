import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getNifInfo } from '../../api/registry';
import { nifField, optionsCollection, pacedRequestOptions } from '../../descriptions';
import { readRunSettings } from '../../parameters/runSettings';
import { pairRecords, runForEachItem } from '../../run/itemRunner';
import { normalizeNif } from '../../identifiers/nif';

const displayOptions = {
	show: { resource: ['nif'], operation: ['getInfo'], '@version': [{ _cnd: { gte: 3 } }] },
};

const properties: INodeProperties[] = [
	{
		...nifField('check'),
		description:
			'Spanish tax identifier of a company (CIF) or a person (DNI, NIE). Spaces, dashes and an ES prefix are removed; LibreBOR says whether it is valid.',
	},
	optionsCollection(pacedRequestOptions),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** Normalised, but not refused when its check character is wrong: saying so is this operation's job. */
function readNifToCheck(context: IExecuteFunctions, itemIndex: number): string {
	const value = context.getNodeParameter('nif', itemIndex, '');
	if (String(value ?? '').trim() === '')
		throw new NodeOperationError(context.getNode(), 'The NIF is empty', {
			itemIndex,
			description:
				'Enter the Spanish tax identifier to check, such as B64717838, 12345678Z or X1234567L.',
		});
	const nif =
		typeof value === 'string' || typeof value === 'number' ? normalizeNif(String(value)) : '';
	if (/^[A-Z0-9]{1,20}$/.test(nif)) return nif;
	throw new NodeOperationError(context.getNode(), `The NIF "${String(value)}" cannot be checked`, {
		itemIndex,
		description:
			'Enter a Spanish tax identifier: letters and digits, such as B64717838, 12345678Z or X1234567L.',
	});
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runForEachItem(this, readRunSettings(this), async (item) => {
		const nif = readNifToCheck(this, item.itemIndex);
		return pairRecords(item.itemIndex, [await getNifInfo.call(this, nif, item)]);
	});
}
