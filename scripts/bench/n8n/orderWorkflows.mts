import { libreBor as libreBorNode } from '../../../tools/n8n/libreBorN8n.mts';
import {
	manualTrigger,
	workflow,
	type WorkflowDefinition,
	type WorkflowNode,
} from '../../../tools/n8n/workflowBuilder.mts';
import {
	BASIC_CREDENTIAL,
	LIBREBOR_CREDENTIAL,
	MEASURED_NODE,
	type SimulatorAccess,
} from './benchWorkflows.mts';

export type OrderVia = 'LibreBOR node' | 'HTTP Request node';

/** One job: how many orders, and whether each is waited for and downloaded. */
export interface OrderJob {
	orders: number;
	download: boolean;
	/** The LibreBOR node's Poll Interval in seconds; undefined: its default (60 s). */
	pollIntervalS?: number;
}

/** The node that downloads the files in the HTTP Request node's workflow. */
export const FILE_NODE = 'File';

/**
 * A Code node with one item per order: `count` new valid company NIFs on every run, so that no run
 * reuses an order of an earlier one (the LibreBOR node's Order Memory), and the year.
 */
const newCompanies = (count: number): WorkflowNode => ({
	name: 'Companies',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: {
		jsCode: `const cif = (digits) => {
	let sum = 0;
	for (let i = 0; i < 7; i++) {
		const digit = Number(digits[i]);
		sum += i % 2 === 0 ? Math.floor((digit * 2) / 10) + ((digit * 2) % 10) : digit;
	}
	return 'B' + digits + String((10 - (sum % 10)) % 10);
};
const nifs = new Set();
while (nifs.size < ${count}) nifs.add(cif(String(1000000 + Math.floor(Math.random() * 8999999))));
return [...nifs].map((nif) => ({ json: { nif, year: 2023 } }));`,
	},
});

/** Version 2 of the LibreBOR node, what a node added today is, ordering each item's company. */
function libreBorOrder(job: OrderJob): WorkflowNode {
	const limits = { maxOrders: 100, maxOrdersPerHour: 10_000 };
	const waiting = job.download
		? { download: true, ...(job.pollIntervalS && { pollInterval: job.pollIntervalS }) }
		: {};
	return {
		...libreBorNode(
			MEASURED_NODE,
			{
				resource: 'document',
				operation: 'order',
				nif: { __rl: true, mode: 'id', value: '={{ $json.nif }}' },
				year: '={{ $json.year }}',
				options: { ...limits, ...waiting },
			},
			{ credential: LIBREBOR_CREDENTIAL },
		),
		typeVersion: 2,
	};
}

const httpRequest = (name: string, parameters: WorkflowNode['parameters']): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters,
	credentials: { httpBasicAuth: BASIC_CREDENTIAL },
});

const authenticated = {
	authentication: 'genericCredentialType',
	genericAuthType: 'httpBasicAuth',
};

/** The HTTP Request node posting each item's order, as a user would build it. */
const httpOrder = (sim: SimulatorAccess): WorkflowNode =>
	httpRequest(MEASURED_NODE, {
		method: 'POST',
		url: `${sim.baseUrl}/documents/order/`,
		...authenticated,
		sendBody: true,
		contentType: 'form-urlencoded',
		bodyParameters: {
			parameters: [
				{ name: 'nif', value: '={{ $json.nif }}' },
				{ name: 'type', value: 'accounts' },
				{ name: 'year', value: '={{ $json.year }}' },
			],
		},
		options: {},
	});

/**
 * What waiting takes with n8n's own nodes: a Wait of 1 s, a status check per item, and an IF
 * that sends the items still processing back to the Wait and the others to the download.
 */
function waitLoop(sim: SimulatorAccess): WorkflowNode[] {
	return [
		{
			name: 'Wait',
			type: 'n8n-nodes-base.wait',
			typeVersion: 1.1,
			parameters: { resume: 'timeInterval', amount: 1, unit: 'seconds' },
		},
		httpRequest('Status', {
			method: 'GET',
			url: `=${sim.baseUrl}/documents/{{ $json.document_id ?? $json.document.id }}/`,
			...authenticated,
			options: {},
		}),
		{
			name: 'Ready?',
			type: 'n8n-nodes-base.if',
			typeVersion: 2,
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
					conditions: [
						{
							id: 'still-processing',
							leftValue: '={{ $json.document.status }}',
							rightValue: 'processing',
							operator: { type: 'string', operation: 'notEquals' },
						},
					],
					combinator: 'and',
				},
				options: {},
			},
		},
		{
			name: FILE_NODE,
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'GET',
				url: '={{ $json.document.download_link }}',
				options: { response: { response: { responseFormat: 'file' } } },
			},
		},
	];
}

/** Manual Trigger -> Code (one item per new company) -> the orders, with either node. */
export function orderWorkflow(
	id: string,
	via: OrderVia,
	sim: SimulatorAccess,
	job: OrderJob,
): WorkflowDefinition {
	const name = `${job.orders} orders${job.download ? ' with Download' : ''} via the ${via}`;
	const start = [manualTrigger(), newCompanies(job.orders)];
	if (via === 'LibreBOR node')
		return workflow(
			id,
			name,
			[...start, libreBorOrder(job)],
			[['Start', 'Companies', MEASURED_NODE]],
		);
	if (!job.download)
		return workflow(id, name, [...start, httpOrder(sim)], [['Start', 'Companies', MEASURED_NODE]]);
	const definition = workflow(
		id,
		name,
		[...start, httpOrder(sim), ...waitLoop(sim)],
		[['Start', 'Companies', MEASURED_NODE, 'Wait', 'Status', 'Ready?', FILE_NODE]],
	);
	// The IF's second output (still processing) goes back to the Wait.
	definition.connections['Ready?'].main.push([{ node: 'Wait', type: 'main', index: 0 }]);
	return definition;
}
