import { LoadOptionsContext } from 'n8n-core';
import type { INodeListSearchResult, INodeParameters, INodeType } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { createAdditionalData } from './additionalData.mts';
import { CredentialTypeRegistry, defaultCredentialTypes } from './credentialTypes.mts';
import type { CredentialsByType } from './credentialsHelper.mts';
import { HarnessCredentialsHelper } from './credentialsHelper.mts';
import { ensureEngine } from './engine.mts';
import { buildNodeUnderTest } from './nodeUnderTest.mts';
import { asLoadedByN8n, HarnessNodeTypes } from './nodeTypes.mts';

export interface RunListSearchOptions {
	nodeType: INodeType;
	/** The name under `methods.listSearch`, as a resource locator's `searchListMethod` names it. */
	method: string;
	/** The node's current parameters, as the editor sends them. */
	parameters?: INodeParameters;
	credentials?: CredentialsByType;
	filter?: string;
	paginationToken?: string;
	typeVersion?: number;
}

/**
 * Calls a list-search method the way n8n's editor endpoint does
 * (DynamicNodeParametersService.getResourceLocatorResults): a one-node workflow and a real
 * LoadOptionsContext whose authenticated requests go through the credential type.
 */
export async function runListSearch(options: RunListSearchOptions): Promise<INodeListSearchResult> {
	await ensureEngine();
	const node = buildNodeUnderTest({ ...options, parameters: options.parameters ?? {} });
	const nodeTypes = new HarnessNodeTypes().register(node.type, asLoadedByN8n(options.nodeType));
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = createAdditionalData({
		credentialsHelper: new HarnessCredentialsHelper(
			new CredentialTypeRegistry(defaultCredentialTypes()),
			structuredClone(options.credentials ?? {}),
		),
		workflowId: 'harness-list-search',
	});
	additionalData.currentNodeParameters = node.parameters;
	const search = options.nodeType.methods?.listSearch?.[options.method];
	if (!search) throw new Error(`The node has no list-search method "${options.method}"`);
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	return await search.call(context, options.filter, options.paginationToken);
}
