import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHttpsTestServer, type HttpsTestServer } from '../../tools/engine/index.mts';
import { startSimulator, type Simulator } from '../../tools/simulator/index.mts';
import { nodeOutputItems } from '../../tools/n8n/executionRun.mts';
import { libreBorCredential, libreBor } from '../../tools/n8n/libreBorN8n.mts';
import { createN8nWithLibreBor } from './n8nWithLibreBor.mts';
import { executeWorkflow, type WorkflowExecution } from '../../tools/n8n/n8nCli.mts';
import type { N8nUserFolder } from '../../tools/n8n/n8nUserFolder.mts';
import { manualTrigger, workflow } from '../../tools/n8n/workflowBuilder.mts';

// n8n's outbound protection, on as an administrator would turn it on, with the API's host allowed
// by name. A download link, or a redirect from the download host, into the cloud metadata address
// must be refused by n8n and reported as such, while an ordinary download still works.
const setupTimeoutMs = 600_000;
const workflowId = 'libreBorSsrfCheck';
const metadataUrl = 'https://169.254.169.254/latest/meta-data/iam/';
const year = new Date().getUTCFullYear() - 1;
const cases = {
	metadataLink: 'B64717838',
	redirectToMetadata: 'A86212420',
	ordinary: 'A28012342',
} as const;

const downloadChain = (label: string, nif: string) => [
	libreBor(`Order ${label}`, { resource: 'document', operation: 'order', nif, year }),
	libreBor(
		`Download ${label}`,
		{
			resource: 'document',
			operation: 'download',
			documentId: '={{ $json.document_id }}',
			binaryPropertyName: 'pdf',
			options: { pollInterval: 1 },
		},
		{ onError: 'continueRegularOutput' },
	),
];

const ssrfWorkflow = workflow(
	workflowId,
	'LibreBOR: downloads under outbound protection',
	[manualTrigger(), ...Object.entries(cases).flatMap(([label, nif]) => downloadChain(label, nif))],
	Object.keys(cases).map((label) => ['Start', `Order ${label}`, `Download ${label}`]),
);

describe('downloads in a real n8n with N8N_SSRF_PROTECTION_ENABLED=true', () => {
	let sim: Simulator;
	let redirector: HttpsTestServer;
	let folder: N8nUserFolder;
	let execution: WorkflowExecution;

	const downloadError = (label: keyof typeof cases) => {
		const [item] = nodeOutputItems(execution.run!, `Download ${label}`);
		return String(item?.json.error ?? '');
	};

	beforeAll(async () => {
		redirector = await startHttpsTestServer((_request, response) =>
			response.writeHead(302, { location: metadataUrl }).end(),
		);
		const redirectorUrl = `${redirector.origin.replace('127.0.0.1', 'localhost')}/files/next-hop`;
		sim = await startSimulator({ documentSizeBytes: 2048 });
		sim.state.downloadLinkOverride = (document) =>
			document.nif === cases.metadataLink
				? metadataUrl
				: document.nif === cases.redirectToMetadata
					? redirectorUrl
					: document.download_link;
		folder = await createN8nWithLibreBor({
			credentials: [libreBorCredential(sim)],
			workflows: [ssrfWorkflow],
		});
		execution = await executeWorkflow(folder, workflowId, {
			env: { N8N_SSRF_PROTECTION_ENABLED: 'true', N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost' },
		});
		if (!execution.run)
			throw new Error(
				`n8n printed no run:\n${execution.result.stdout}\n${execution.result.stderr}`,
			);
	}, setupTimeoutMs);

	afterAll(async () => {
		await folder?.remove();
		await sim?.close();
		await redirector?.close();
	});

	it('refuses a download link into the metadata range, and says n8n blocked it', () => {
		expect(downloadError('metadataLink')).toContain(
			"n8n's outbound protection blocked the download of document",
		);
		expect(downloadError('metadataLink')).toContain('169.254.169.254');
	});

	it('refuses the same address when the download host redirects to it', () => {
		expect(downloadError('redirectToMetadata')).toContain(
			"n8n's outbound protection blocked the download of document",
		);
		expect(redirector.requests).toHaveLength(1);
	});

	it('still downloads an ordinary file, with the API host allowed by name', () => {
		const [item] = nodeOutputItems(execution.run!, 'Download ordinary');
		expect(item.json.error).toBeUndefined();
		expect(item.binary?.pdf).toMatchObject({ mimeType: 'application/pdf', bytes: 2048 });
		expect(sim.requestsTo('GET', /^\/files\//, 'download')).toHaveLength(1);
	});
});
