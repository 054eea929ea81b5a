import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { endNodeRun, startNodeRun, type NodeRun } from './helpers/nodeRun';
import { DEFAULT_PACING } from './helpers/pacer';
import { triggerProperties } from './trigger/description';
import { pollNewAlerts } from './trigger/pollNewAlerts';
import { pollSampleAlerts } from './trigger/pollSampleAlerts';
import { searchWatchedCompanies } from './methods';
import { readTriggerSettings, readTriggerTimeoutMs } from './trigger/settings';

export class LibreBorTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'LibreBOR Trigger',
		name: 'libreBorTrigger',
		group: ['trigger'],
		icon: { light: 'file:../../icons/librebor.svg', dark: 'file:../../icons/librebor.dark.svg' },
		version: 1,
		subtitle:
			'={{$parameter["output"] === "entry" ? "New alert entries" : $parameter["output"] === "position" ? "New person changes" : "New alerts"}}',
		description:
			'Starts the workflow when a company on your LibreBOR watch list appears in the BORME',
		defaults: {
			name: 'LibreBOR Trigger',
		},
		credentials: [
			{
				name: 'libreBorApi',
				required: true,
			},
		],
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchWatchedCompanies },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		let run: NodeRun | undefined;
		const startPoll = async () => {
			// Each poll is a run of its own: its reads and marks share one pacer and one time budget,
			// which is the poll's own when n8n's scheduler gives it one.
			const budgetMs =
				typeof this.getPollBudgetMs === 'function'
					? this.getPollBudgetMs()
					: DEFAULT_PACING.budgetMs;
			const pacing = { ...DEFAULT_PACING, budgetMs };
			run = startNodeRun(this, { pacing, timeoutMs: readTriggerTimeoutMs(this) });
			return await readTriggerSettings.call(this, run);
		};
		try {
			if (this.getMode() === 'manual') return await pollSampleAlerts.call(this, await startPoll());
			return await pollNewAlerts.call(this, startPoll);
		} finally {
			if (run) endNodeRun(run);
		}
	}
}
