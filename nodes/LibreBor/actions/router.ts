import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import * as alert from './alert';
import * as company from './company';
import * as document from './document';
import * as nif from './nif';
import type { LibreBorResource, Operation, PerOperation } from './node.type';
import * as person from './person';
import * as watchlist from './watchlist';

/**
 * Every operation of the node, by resource. Typed, so that an operation added to the map without a
 * handler (or the reverse) does not compile; the tests derive the operations they cover from it.
 */
export const operations: PerOperation<Operation> = {
	alert: {
		getMany: alert.getMany,
		markAsRead: alert.markAsRead,
		markAllAsRead: alert.markAllAsRead,
	},
	watchlist: {
		follow: watchlist.follow,
		unfollow: watchlist.unfollow,
		getMany: watchlist.getMany,
		sync: watchlist.sync,
	},
	document: { order: document.order, get: document.get, download: document.download },
	company: {
		search: company.search,
		get: company.get,
		getIncorporation: company.getIncorporation,
	},
	person: { search: person.search, get: person.get },
	nif: { getInfo: nif.getInfo },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as LibreBorResource;
	const operation = this.getNodeParameter('operation', 0) as string;
	const ofResource: Partial<Record<string, Operation>> | undefined = operations[resource];
	const handler = ofResource?.[operation];
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return [await handler.execute.call(this)];
}
