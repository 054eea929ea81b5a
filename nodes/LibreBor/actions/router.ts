import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import * as alert from './alert';
import * as document from './document';
import * as watchlist from './watchlist';

type Operation = { execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[]> };

const operations: Record<string, Record<string, Operation>> = {
	alert: {
		getMany: alert.getMany,
		markAsRead: alert.markAsRead,
		markAllAsRead: alert.markAllAsRead,
	},
	watchlist: { follow: watchlist.follow, unfollow: watchlist.unfollow, getMany: watchlist.getMany },
	document: { order: document.order, get: document.get, download: document.download },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = operations[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return [await handler.execute.call(this)];
}
