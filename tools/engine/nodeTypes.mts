import { DirectoryLoader } from 'n8n-core';
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';
import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { packageName } from '../packageName.mts';

export const nodeTypeNameOf = (nodeType: INodeType): string =>
	`${packageName}.${nodeType.description.name}`;

export const latestVersionOf = (nodeType: INodeType): number => {
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
};

/**
 * A copy of a node type as n8n holds it after loading the package: polling nodes get the
 * `pollTimes` parameter and declarative nodes the request options, like n8n-core's
 * DirectoryLoader does. A copy, because the loader mutates the description it loads.
 */
export function asLoadedByN8n(nodeType: INodeType): INodeType {
	const description = { ...nodeType.description, properties: [...nodeType.description.properties] };
	const loaded = Object.assign(
		Object.create(Object.getPrototypeOf(nodeType) as object) as INodeType,
		nodeType,
		{
			description,
		},
	);
	if (description.polling && !description.properties.some(({ name }) => name === 'pollTimes')) {
		description.properties.unshift(...commonPollingParameters);
	}
	DirectoryLoader.applyDeclarativeNodeOptionParameters(loaded);
	return loaded;
}

/** The node types one engine run knows, by full type name. */
export class HarnessNodeTypes implements INodeTypes {
	private readonly byName = new Map<string, INodeType | IVersionedNodeType>();

	register(typeName: string, nodeType: INodeType | IVersionedNodeType): this {
		this.byName.set(typeName, nodeType);
		return this;
	}

	getByName(typeName: string): INodeType | IVersionedNodeType {
		const nodeType = this.byName.get(typeName);
		if (!nodeType) throw new UnexpectedError(`Unknown node type "${typeName}"`);
		return nodeType;
	}

	getByNameAndVersion(typeName: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(typeName), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}
