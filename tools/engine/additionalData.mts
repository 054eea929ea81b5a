import type { ExecutionLifecycleHooks } from 'n8n-core';
import { ExternalSecretsProxy } from 'n8n-core';
import type { ICredentialsHelper, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

const INSTANCE_URL = 'http://localhost:5678';

const unsupported = (feature: string) => async (): Promise<never> => {
	throw new UnexpectedError(`${feature} is not available in the test harness`);
};

/**
 * The per-execution services n8n hands to node contexts (what the CLI builds in
 * `WorkflowExecuteAdditionalData.getBase`), minus the parts that need a database:
 * sub-workflows, task runners and runtime credentials are refused with a clear error.
 */
export function createAdditionalData(options: {
	credentialsHelper: ICredentialsHelper;
	workflowId: string;
	executionId?: string;
	hooks?: ExecutionLifecycleHooks;
}): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${INSTANCE_URL}/rest`,
		instanceBaseUrl: INSTANCE_URL,
		formBaseUrl: `${INSTANCE_URL}/form`,
		formWaitingBaseUrl: `${INSTANCE_URL}/form-waiting`,
		formTestBaseUrl: `${INSTANCE_URL}/form-test`,
		webhookBaseUrl: `${INSTANCE_URL}/webhook`,
		webhookWaitingBaseUrl: `${INSTANCE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${INSTANCE_URL}/webhook-test`,
		mcpBaseUrl: `${INSTANCE_URL}/mcp`,
		mcpTestBaseUrl: `${INSTANCE_URL}/mcp-test`,
		variables: {},
		externalSecretsProxy: new ExternalSecretsProxy(),
		logAiEvent: () => {},
		executeWorkflow: unsupported('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('A task runner'),
	};
}
