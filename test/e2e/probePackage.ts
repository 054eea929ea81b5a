import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A throwaway community package that proves n8n loads and runs packages installed by the helpers. */
export const probePackageName = 'n8n-nodes-e2e-probe';
export const probeNodeType = `${probePackageName}.probe`;
export const probeTriggerNodeType = `${probePackageName}.probeTrigger`;

const packageJson = {
	name: probePackageName,
	version: '0.0.1',
	description: 'Probe nodes for the end-to-end test infrastructure.',
	license: 'MIT',
	keywords: ['n8n-community-node-package'],
	files: ['dist'],
	n8n: {
		n8nNodesApiVersion: 1,
		strict: true,
		credentials: [],
		nodes: ['dist/nodes/Probe.node.js', 'dist/nodes/ProbeTrigger.node.js'],
	},
	peerDependencies: { 'n8n-workflow': '*' },
};

// An action node: one output item per input item, greeting from its parameter.
const probeNode = `'use strict';
class Probe {
	constructor() {
		this.description = {
			displayName: 'E2E Probe',
			name: 'probe',
			group: ['transform'],
			version: 1,
			description: 'Answers every item with a greeting',
			defaults: { name: 'E2E Probe' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [{ displayName: 'Greeting', name: 'greeting', type: 'string', default: 'hello' }],
		};
	}
	async execute() {
		const items = this.getInputData();
		return [
			items.map((_item, index) => ({
				json: { greeting: this.getNodeParameter('greeting', index), index },
				pairedItem: { item: index },
			})),
		];
	}
}
module.exports = { Probe };
`;

// A polling trigger: emits one item per poll, counting polls in the workflow's static data.
const probeTriggerNode = `'use strict';
class ProbeTrigger {
	constructor() {
		this.description = {
			displayName: 'E2E Probe Trigger',
			name: 'probeTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Emits one item per poll',
			defaults: { name: 'E2E Probe Trigger' },
			polling: true,
			inputs: [],
			outputs: ['main'],
			properties: [],
		};
	}
	async poll() {
		const staticData = this.getWorkflowStaticData('node');
		staticData.polls = (staticData.polls || 0) + 1;
		return [[{ json: { poll: staticData.polls, mode: this.getMode() } }]];
	}
}
module.exports = { ProbeTrigger };
`;

/** Writes the probe package's source into `folder` (ready for `npm pack`). */
export async function writeProbePackage(folder: string): Promise<string> {
	await mkdir(path.join(folder, 'dist', 'nodes'), { recursive: true });
	await writeFile(path.join(folder, 'package.json'), JSON.stringify(packageJson, null, 2));
	await writeFile(path.join(folder, 'dist', 'nodes', 'Probe.node.js'), probeNode);
	await writeFile(path.join(folder, 'dist', 'nodes', 'ProbeTrigger.node.js'), probeTriggerNode);
	return folder;
}

/** Manual Trigger -> E2E Probe, for `n8n execute`. */
export function probeManualWorkflow(id: string, greeting: string): object {
	return {
		id,
		name: 'E2E probe (manual)',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'a7f1c0de-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'a7f1c0de-0000-4000-8000-000000000002',
				name: 'E2E Probe',
				type: probeNodeType,
				typeVersion: 1,
				position: [220, 0],
				parameters: { greeting },
			},
		],
		connections: { Start: { main: [[{ node: 'E2E Probe', type: 'main', index: 0 }]] } },
	};
}

/** E2E Probe Trigger alone, polling every minute, for a published workflow. */
export function probePollingWorkflow(id: string): object {
	return {
		id,
		name: 'E2E probe (polling)',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'a7f1c0de-0000-4000-8000-000000000003',
				name: 'E2E Probe Trigger',
				type: probeTriggerNodeType,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] } },
			},
		],
		connections: {},
	};
}
