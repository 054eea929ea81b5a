import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow as WorkflowType,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	isExpression,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow,
} from 'n8n-workflow';

import type { CredentialTypeRegistry } from './credentialTypes.mts';

/** Credential data by credential type name, decrypted, as a test hands it over. */
export type CredentialsByType = Record<string, ICredentialDataDecryptedObject>;

const CREDENTIAL_OWNER_NODE: INode = {
	id: 'credential-owner',
	name: '',
	type: 'mock',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const credentialOwnerNodeTypes: INodeTypes = {
	getByName: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getByNameAndVersion: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getKnownTypes: () => ({}),
};

/**
 * n8n's credentials helper without a database: it holds decrypted credential data by
 * type and applies each credential type's `authenticate` the way n8n's own
 * (packages/cli/src/credentials-helper.ts) does, so a node's authenticated requests
 * go out exactly as they would from an n8n instance.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentialTypes: CredentialTypeRegistry,
		private readonly credentialsByType: CredentialsByType = {},
	) {
		super();
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: WorkflowType,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (!authenticate) return requestOptions as IHttpRequestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}

		if (!workflow || !node) {
			throw new UnexpectedError(
				'Workflow and node are required for declarative credential authentication',
			);
		}
		requestOptions.headers ??= {};
		if (authenticate.type === 'generic') {
			// Same in-place merge as n8n: every `{{ }}` key and value is resolved against $credentials.
			const target = requestOptions as unknown as Record<string, Record<string, string>>;
			for (const [section, entries] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					const resolvedKey = this.resolveValue(key, credentials, workflow, node);
					const resolvedValue = this.resolveValue(value, credentials, workflow, node);
					target[section] ??= {};
					target[section][resolvedKey] = resolvedValue;
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof credentialType.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		const refreshed = output as ICredentialDataDecryptedObject;
		this.credentialsByType[typeName] = { ...this.credentialsByType[typeName], ...refreshed };
		return Object.assign(credentials, refreshed);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.credentialTypes.getByName(typeName);
		if (typeof preAuthentication !== 'function') return undefined;
		return (await preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		let typeDefinition;
		try {
			typeDefinition = this.credentialTypes.getByName(credentialType);
		} catch {
			return true;
		}
		if (!typeDefinition.restrictToSupportedNodes) return true;
		return (typeDefinition.supportedNodes ?? []).some((name) => nodeType.endsWith(`.${name}`));
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		const credentials = new Credentials(
			{ id: nodeCredentials.id, name: nodeCredentials.name },
			type,
		);
		await credentials.setData(this.storedData(nodeCredentials, type));
		return credentials;
	}

	/** Stored data with the type's defaults added and expressions resolved, as n8n hands it to a node. */
	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.storedData(nodeCredentials, type);
		if (raw === true) return stored;
		return this.applyDefaults(
			additionalData,
			stored,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	applyDefaults(
		additionalData: IWorkflowExecuteAdditionalData,
		stored: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });

		if (expressionResolveValues) {
			return expressionResolveValues.workflow.expression.getParameterValue(
				withDefaults as INodeParameters,
				expressionResolveValues.runExecutionData,
				expressionResolveValues.runIndex,
				expressionResolveValues.itemIndex,
				expressionResolveValues.node.name,
				expressionResolveValues.connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				withDefaults,
			) as ICredentialDataDecryptedObject;
		}
		const workflow = new Workflow({
			nodes: [CREDENTIAL_OWNER_NODE],
			connections: {},
			active: false,
			nodeTypes: credentialOwnerNodeTypes,
		});
		return workflow.expression.getComplexParameterValue(
			CREDENTIAL_OWNER_NODE,
			withDefaults as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.credentialsByType[type] = data;
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.credentialsByType[type] = {
			...this.credentialsByType[type],
			oauthTokenData: data.oauthTokenData,
		};
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getProperties(type);
	}

	private storedData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): ICredentialDataDecryptedObject {
		const stored = this.credentialsByType[type];
		if (!stored) {
			// The message n8n gives when a node points at a credential that is not there.
			throw new UserError(
				`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`,
			);
		}
		return { ...stored };
	}

	private resolveValue(
		value: string,
		credentials: ICredentialDataDecryptedObject,
		workflow: WorkflowType,
		node: INode,
	): string {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return resolved ? resolved.toString() : '';
	}
}
