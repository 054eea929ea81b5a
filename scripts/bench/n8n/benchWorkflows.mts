import { libreBor as libreBorNode, libreBorCredential } from '../../../tools/n8n/libreBorN8n.mts';
import { manualTrigger, workflow, type WorkflowNode } from '../../../tools/n8n/workflowBuilder.mts';

export const LIBREBOR_CREDENTIAL = { id: 'bench-librebor', name: 'LibreBOR API (simulator)' };
export const BASIC_CREDENTIAL = { id: 'bench-basic-auth', name: 'LibreBOR Basic auth (simulator)' };

/** The node each workflow times, by the name it has in the workflow. */
export const MEASURED_NODE = 'Measured';

export interface SimulatorAccess {
	baseUrl: string;
	credentials: { username: string; password: string };
}

export function benchCredentials(sim: SimulatorAccess): object[] {
	return [
		libreBorCredential(sim, LIBREBOR_CREDENTIAL),
		{
			...BASIC_CREDENTIAL,
			type: 'httpBasicAuth',
			data: { user: sim.credentials.username, password: sim.credentials.password },
		},
	];
}

/** A Code node that outputs one item per NIF. */
const nifItems = (nifs: string[]): WorkflowNode => ({
	name: 'Companies',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode: `return ${JSON.stringify(nifs)}.map((nif) => ({ json: { nif } }));` },
});

const libreBor = (parameters: WorkflowNode['parameters']): WorkflowNode =>
	libreBorNode(MEASURED_NODE, parameters, { credential: LIBREBOR_CREDENTIAL });

const httpRequest = (
	parameters: WorkflowNode['parameters'],
	authenticated: boolean,
): WorkflowNode => ({
	name: MEASURED_NODE,
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters,
	...(authenticated ? { credentials: { httpBasicAuth: BASIC_CREDENTIAL } } : {}),
});

export type FollowVia = 'LibreBOR node' | 'HTTP Request node';

/** Manual Trigger -> Code (one item per NIF) -> follow each company, with either node at its defaults. */
export function followWorkflow(
	id: string,
	via: FollowVia,
	sim: SimulatorAccess,
	nifs: string[],
): object {
	const measured =
		via === 'LibreBOR node'
			? libreBor({ resource: 'watchlist', operation: 'follow', nif: '={{ $json.nif }}' })
			: httpRequest(
					{
						method: 'POST',
						url: `${sim.baseUrl}/alerts/follow/`,
						authentication: 'genericCredentialType',
						genericAuthType: 'httpBasicAuth',
						sendBody: true,
						contentType: 'form-urlencoded',
						bodyParameters: {
							parameters: [
								{ name: 'nif', value: '={{ $json.nif }}' },
								{ name: 'type', value: 'company' },
							],
						},
						options: {},
					},
					true,
				);
	return workflow(
		id,
		`Follow ${nifs.length} via the ${via}`,
		[manualTrigger(), nifItems(nifs), measured],
		[['Start', 'Companies', MEASURED_NODE]],
	);
}

export type DownloadVia = FollowVia | 'no download (baseline)';

/**
 * Manual Trigger -> download one document: by its ID with the LibreBOR node, or from its link with
 * the HTTP Request node. The baseline gets the document's record with the LibreBOR node, no file.
 */
export function downloadWorkflow(
	id: string,
	via: DownloadVia,
	document: { id: string; link: string },
): object {
	const measured =
		via === 'LibreBOR node'
			? libreBor({
					resource: 'document',
					operation: 'download',
					documentId: document.id,
					binaryPropertyName: 'data',
				})
			: via === 'HTTP Request node'
				? httpRequest(
						{
							method: 'GET',
							url: document.link,
							options: { response: { response: { responseFormat: 'file' } } },
						},
						false,
					)
				: libreBor({ resource: 'document', operation: 'get', documentId: document.id });
	return workflow(
		id,
		`Download a document: ${via}`,
		[manualTrigger(), measured],
		[['Start', MEASURED_NODE]],
	);
}
