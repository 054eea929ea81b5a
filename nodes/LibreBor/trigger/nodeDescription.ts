import { NodeConnectionTypes, type INodeTypeDescription } from 'n8n-workflow';

/** What both versions of the trigger show besides what n8n's lint rules read in each. */
export const TRIGGER_DESCRIPTION_COMMON: Pick<
	INodeTypeDescription,
	'defaults' | 'credentials' | 'inputs' | 'outputs'
> = {
	defaults: { name: 'LibreBOR Trigger' },
	credentials: [{ name: 'libreBorApi', required: true }],
	inputs: [],
	outputs: [NodeConnectionTypes.Main],
};

export const TRIGGER_SUBTITLE =
	'={{$parameter["output"] === "entry" ? "New alert entries" : $parameter["output"] === "position" ? "New person changes" : "New alerts"}}';
