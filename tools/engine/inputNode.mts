import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import { BINARY_ENCODING, NodeConnectionTypes } from 'n8n-workflow';

export const INPUT_NODE_TYPE = 'harness.input';
export const INPUT_NODE_NAME = 'Test Input';

/** Items as a test writes them: full execution items, or plain JSON objects. */
export type InputItems = INodeExecutionData[] | IDataObject[];

export const toExecutionItems = (items: InputItems = [{}]): INodeExecutionData[] =>
	items.map((item) =>
		typeof item.json === 'object' && item.json !== null && !Array.isArray(item.json)
			? structuredClone(item as INodeExecutionData)
			: { json: structuredClone(item as IDataObject) },
	);

/**
 * A test-only start node that emits the given items. Binary data given inline (base64,
 * without an id) is stored through the binary-data service first, so the node under
 * test receives file references exactly like it would from an upstream n8n node.
 */
export function createInputNodeType(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Test Input',
			name: 'input',
			group: ['input'],
			version: 1,
			description: 'Emits the items of a test',
			defaults: { name: INPUT_NODE_NAME },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const output: INodeExecutionData[] = [];
			for (const item of items) {
				const copy = structuredClone(item);
				if (copy.binary) copy.binary = await storeInlineBinary.call(this, copy.binary);
				output.push(copy);
			}
			return [output];
		},
	};
}

async function storeInlineBinary(
	this: IExecuteFunctions,
	binary: IBinaryKeyData,
): Promise<IBinaryKeyData> {
	const stored: IBinaryKeyData = {};
	for (const [property, data] of Object.entries(binary)) {
		stored[property] = data.id
			? data
			: await this.helpers.prepareBinaryData(
					Buffer.from(data.data, BINARY_ENCODING),
					data.fileName,
					data.mimeType,
				);
	}
	return stored;
}
