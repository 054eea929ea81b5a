import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** Each resource of the node with its operations, as the Resource and Operation parameters name them. */
type LibreBorOperations = {
	alert: 'getMany' | 'markAsRead' | 'markAllAsRead';
	watchlist: 'follow' | 'unfollow' | 'getMany' | 'sync';
	document: 'order' | 'get' | 'download';
	company: 'search' | 'get' | 'getIncorporation';
	person: 'search' | 'get';
	nif: 'getInfo';
};

export type LibreBorResource = keyof LibreBorOperations;

/** One value for each operation of each resource, none missing and none extra. */
export type PerOperation<T> = { [R in LibreBorResource]: Record<LibreBorOperations[R], T> };

export type Operation = { execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[]> };
