import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialType,
	IDataObject,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeType,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { createAdditionalData } from './additionalData.mts';
import { CredentialTypeRegistry } from './credentialTypes.mts';
import { HarnessCredentialsHelper } from './credentialsHelper.mts';
import { ensureEngine } from './engine.mts';
import { HarnessNodeTypes } from './nodeTypes.mts';

const TEST_NODE_TYPE = 'harness.credentialTest';

/**
 * The "Test" button of n8n's credential dialog, as packages/cli/src/services/
 * credentials-tester.service.ts does it for a credential with a `test` request: the
 * stored data gets the type's defaults, then `test.request` runs through n8n-core's
 * RoutingNode (which resolves its `={{ $credentials... }}` expressions and applies the
 * credential's `authenticate`), and any 2xx answer is a success.
 */
export async function testCredential(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	await ensureEngine();
	if (!credentialType.test) {
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}

	const credentialsHelper = new HarnessCredentialsHelper(
		new CredentialTypeRegistry([credentialType]),
		{
			[credentialType.name]: data,
		},
	);
	const additionalData = createAdditionalData({
		credentialsHelper,
		workflowId: 'harness-credential-test',
	});

	let credentialsDecrypted: ICredentialsDecrypted;
	try {
		credentialsDecrypted = {
			id: 'credential-under-test',
			name: `${credentialType.displayName} account`,
			type: credentialType.name,
			data: credentialsHelper.applyDefaults(
				additionalData,
				{ ...data },
				credentialType.name,
				'internal',
			),
		};
	} catch (error) {
		return { status: 'Error', message: String((error as Error).message) };
	}

	const nodeType: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: 'Sends the test request of a credential',
			defaults: { name: 'Temp-Node' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: credentialType.test.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: TEST_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: {
			[credentialType.name]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name },
		},
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes().register(TEST_NODE_TYPE, nodeType),
	});
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({ resultData: { runData: {} } }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);

	let response;
	try {
		response = await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
	} catch (error) {
		return failureOf(error as CredentialTestError, credentialType);
	}

	const answer = response?.[0]?.[0]?.json;
	for (const rule of credentialType.test.rules ?? []) {
		if (
			rule.type === 'responseSuccessBody' &&
			answer &&
			valueAt(answer, rule.properties.key) === rule.properties.value
		) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

const valueAt = (data: IDataObject, path: string): unknown =>
	path.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], data);

type CredentialTestError = Error & {
	cause?: { response?: { status: number; statusText?: string }; code?: string };
};

/** The message n8n shows for a failed test: the rule's, the HTTP status text, the network code, or the error. */
function failureOf(
	error: CredentialTestError,
	credentialType: ICredentialType,
): INodeCredentialTestResult {
	const response = error.cause?.response;
	if (response) {
		const rule = credentialType.test?.rules?.find(
			(candidate) =>
				candidate.type === 'responseCode' && candidate.properties.value === response.status,
		);
		if (rule) return { status: 'Error', message: rule.properties.message };
		if (response.status < 199 || response.status > 299) {
			return {
				status: 'Error',
				message: response.statusText || `Received HTTP status code: ${response.status}`,
			};
		}
	} else if (error.cause?.code) {
		return { status: 'Error', message: error.cause.code };
	}
	return { status: 'Error', message: String(error.message) };
}
