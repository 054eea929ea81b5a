import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** Each resource of the node with its operations, as the Resource and Operation parameters name them. */
export type LibreBorOperations = {
	alert: 'getMany' | 'markAsRead' | 'markAllAsRead';
	watchlist: 'follow' | 'unfollow' | 'getMany';
	document: 'order' | 'get' | 'download';
};

export type LibreBorResource = keyof LibreBorOperations;

export type Operation = { execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[]> };
