/** Test-only node and credential types that exercise the harness; not part of the package. */
import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

const actionDescription = (name: string, properties: INodeProperties[]): INodeTypeDescription => ({
	displayName: name,
	name: `${name.charAt(0).toLowerCase()}${name.slice(1).replace(/ /g, '')}`,
	group: ['transform'],
	version: 1,
	description: `Test-only node: ${name}`,
	defaults: { name },
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [
		{ name: 'libreBorApi', required: false },
		{ name: 'harnessTokenApi', required: false },
	],
	properties,
});

/** Upper-cases one field of every item, keeping its binary data. */
export class UppercaseTestNode implements INodeType {
	description = actionDescription('Uppercase', [
		{ displayName: 'Field', name: 'field', type: 'string', default: 'name' },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, itemIndex) => {
				const field = this.getNodeParameter('field', itemIndex) as string;
				return {
					json: { ...item.json, [field]: String(item.json[field]).toUpperCase() },
					binary: item.binary,
					pairedItem: { item: itemIndex },
				};
			}),
		];
	}
}

/** Fails the items whose `name` is the `reject` parameter, following n8n's continue-on-fail pattern. */
export class RejectItemTestNode implements INodeType {
	description = actionDescription('Reject Item', [
		{ displayName: 'Reject', name: 'reject', type: 'string', default: '' },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		for (const [itemIndex, item] of this.getInputData().entries()) {
			try {
				if (item.json.name === this.getNodeParameter('reject', itemIndex)) {
					throw new NodeOperationError(
						this.getNode(),
						`Item "${String(item.json.name)}" is rejected`,
						{
							itemIndex,
						},
					);
				}
				output.push({ json: { ...item.json, accepted: true }, pairedItem: { item: itemIndex } });
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				output.push({ json: { error: (error as Error).message }, pairedItem: { item: itemIndex } });
			}
		}
		return [output];
	}
}

/** Sends one authenticated GET per item and returns the answer. */
export class AuthenticatedGetTestNode implements INodeType {
	description = actionDescription('Authenticated Get', [
		{ displayName: 'URL', name: 'url', type: 'string', default: '' },
		{
			displayName: 'Credential Type',
			name: 'credentialType',
			type: 'string',
			default: 'libreBorApi',
		},
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
			const answer = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				this.getNodeParameter('credentialType', itemIndex) as string,
				{ url: this.getNodeParameter('url', itemIndex) as string, json: true },
			)) as INodeExecutionData['json'];
			output.push({ json: answer, pairedItem: { item: itemIndex } });
		}
		return [output];
	}
}

/** A declarative node: n8n's RoutingNode sends its Path with `requestDefaults.baseURL`. */
export const declarativeGetTestNode = (baseURL: string): INodeType => ({
	description: {
		...actionDescription('Declarative Get', [
			{
				displayName: 'Path',
				name: 'path',
				type: 'string',
				default: '',
				routing: { request: { method: 'GET', url: '={{$value}}' } },
			},
		]),
		// One credential: with two, n8n asks which through an Authentication parameter.
		credentials: [{ name: 'libreBorApi', required: true }],
		requestDefaults: { baseURL },
	},
});

/** One GET through n8n's legacy helper, `requestWithAuthentication`, which follows redirects. */
export class LegacyGetTestNode implements INodeType {
	description = actionDescription('Legacy Get', [
		{ displayName: 'URL', name: 'url', type: 'string', default: '' },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const answer = (await this.helpers.requestWithAuthentication.call(this, 'libreBorApi', {
			url: this.getNodeParameter('url', 0) as string,
			method: 'GET',
			json: true,
		})) as INodeExecutionData['json'];
		return [[{ json: answer }]];
	}
}

/** Where a new-numbers trigger reads from; tests change it between polls. */
export interface NumberSource {
	numbers: number[];
	/** When set, the next poll moves its mark and then fails with this message. */
	failure?: string;
}

/**
 * A trigger class that emits the numbers above the highest it has seen, remembered in its
 * node static data. The first production poll only sets the mark; a manual run shows the latest.
 */
export function newNumbersTestTrigger(source: NumberSource): new () => INodeType {
	return class NewNumbersTestTrigger implements INodeType {
		description: INodeTypeDescription = {
			displayName: 'New Numbers Trigger',
			name: 'newNumbersTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Test-only trigger: emits new numbers',
			defaults: { name: 'New Numbers' },
			polling: true,
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		};

		async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
			const mark = this.getWorkflowStaticData('node');
			const highest = Math.max(0, ...source.numbers);
			if (this.getMode() === 'manual') return [[{ json: { number: highest } }]];

			const firstPoll = mark.highest === undefined;
			const fresh = firstPoll
				? []
				: source.numbers.filter((number) => number > (mark.highest as number));
			mark.highest = Math.max((mark.highest as number | undefined) ?? 0, highest);
			if (source.failure) throw new NodeOperationError(this.getNode(), source.failure);
			return fresh.length ? [fresh.map((number) => ({ json: { number } }))] : null;
		}
	};
}

/** A trigger that fetches one URL with the LibreBOR credential on every poll. */
export class AuthenticatedPollTestTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Authenticated Poll Trigger',
		name: 'authenticatedPollTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Test-only trigger: polls one URL',
		defaults: { name: 'Authenticated Poll' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'libreBorApi', required: true }],
		properties: [{ displayName: 'URL', name: 'url', type: 'string', default: '' }],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const answer = (await this.helpers.httpRequestWithAuthentication.call(this, 'libreBorApi', {
			url: this.getNodeParameter('url') as string,
			json: true,
		})) as INodeExecutionData['json'];
		return [[{ json: answer }]];
	}
}

/** A credential with a declarative (generic) `authenticate`, to check the expression path. */
export class HarnessTokenApi implements ICredentialType {
	name = 'harnessTokenApi';

	displayName = 'Harness Token API';

	properties: INodeProperties[] = [
		{
			displayName: 'Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{ displayName: 'Header Name', name: 'headerName', type: 'string', default: 'X-Test-Token' },
		{ displayName: 'URL', name: 'url', type: 'string', default: '' },
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { '={{$credentials.headerName}}': '=Token {{$credentials.token}}' } },
	};

	test: ICredentialTestRequest = { request: { baseURL: '={{$credentials.url}}', url: '/ping' } };
}
