import type { INode, INodeCredentials, INodeParameters, INodeType } from 'n8n-workflow';

import type { CredentialsByType } from './credentialsHelper.mts';
import { latestVersionOf, nodeTypeNameOf } from './nodeTypes.mts';

export interface NodeUnderTestOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentials?: CredentialsByType;
	typeVersion?: number;
	continueOnFail?: boolean;
	/** The node setting "Retry On Fail", with 2 tries and no wait between them. */
	retryOnFail?: boolean;
}

/** The workflow node a user would have saved: the node's default name, its parameters and its credential references. */
export function buildNodeUnderTest(options: NodeUnderTestOptions): INode {
	const { description } = options.nodeType;
	const credentials: INodeCredentials = {};
	Object.keys(options.credentials ?? {}).forEach((type, index) => {
		credentials[type] = { id: String(index + 1), name: `${type} account` };
	});

	return {
		id: `${description.name}-under-test`,
		name: description.defaults.name ?? description.displayName,
		type: nodeTypeNameOf(options.nodeType),
		typeVersion: options.typeVersion ?? latestVersionOf(options.nodeType),
		position: [0, 0],
		// The Workflow constructor adds the parameter defaults, so a copy is enough here.
		parameters: structuredClone(options.parameters),
		credentials,
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.retryOnFail ? { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } : {}),
	};
}
