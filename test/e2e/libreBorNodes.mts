import type { INodeParameters } from 'n8n-workflow';

import {
	libreBorCredentialRef,
	libreBorNodeType,
	libreBorTriggerNodeType,
} from '../../tools/n8n/libreBorN8n.mts';
import type { WorkflowNode } from '../../tools/n8n/workflowBuilder.mts';

type Credential = { id: string; name: string };

/** A LibreBOR action node using the test credential. */
export function libreBor(
	name: string,
	parameters: INodeParameters,
	settings: Pick<WorkflowNode, 'executeOnce' | 'onError'> & { credential?: Credential } = {},
): WorkflowNode {
	const { credential = libreBorCredentialRef, ...nodeSettings } = settings;
	return {
		name,
		type: libreBorNodeType,
		typeVersion: 1,
		parameters,
		credentials: { libreBorApi: credential },
		...nodeSettings,
	};
}

/** A LibreBOR Trigger polling every minute (the shortest interval n8n allows). */
export function libreBorTrigger(
	name: string,
	parameters: INodeParameters,
	credential = libreBorCredentialRef,
): WorkflowNode {
	return {
		name,
		type: libreBorTriggerNodeType,
		typeVersion: 1,
		parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters },
		credentials: { libreBorApi: credential },
	};
}
