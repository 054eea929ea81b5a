import {
	updateDisplayOptions,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { byVersion } from '../../descriptions';
import * as follow from './follow.operation';
import * as getMany from './getMany.operation';
import * as sync from './sync.operation';
import * as unfollow from './unfollow.operation';

export { follow, getMany, sync, unfollow };

const followOption: INodePropertyOptions = {
	name: 'Follow',
	value: 'follow',
	description:
		'Add a company to the watch list by its NIF, to get alerts when it appears in the BORME',
	action: 'Follow company',
};

const getManyOption: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getMany',
	description: 'Get the companies on the watch list',
	action: 'Get many watched companies',
};

const syncOption: INodePropertyOptions = {
	name: 'Sync',
	value: 'sync',
	description:
		'Make the watch list hold the NIFs of the input items: follow the missing ones and, if asked, unfollow the others',
	action: 'Sync watch list',
};

const unfollowOption: INodePropertyOptions = {
	name: 'Unfollow',
	value: 'unfollow',
	description: 'Remove a company from the watch list by its NIF',
	action: 'Unfollow company',
};

const operationField = (options: INodePropertyOptions[]): INodeProperties => ({
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options,
	default: 'follow',
});

export const description: INodeProperties[] = [
	// Sync is version 2's: a version 1 node keeps the operations it had.
	...updateDisplayOptions(
		{ show: { resource: ['watchlist'] } },
		byVersion(
			operationField([followOption, getManyOption, unfollowOption]),
			operationField([followOption, getManyOption, syncOption, unfollowOption]),
		),
	),
	...follow.description,
	...unfollow.description,
	...getMany.description,
	...sync.description,
];
