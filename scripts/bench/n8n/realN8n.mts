import { installCommunityPackage } from '../../../tools/n8n/communityPackage.mts';
import { nodeOutputItems } from '../../../tools/n8n/executionRun.mts';
import { importCredentials, importWorkflows } from '../../../tools/n8n/n8nCli.mts';
import { createN8nUserFolder, type N8nUserFolder } from '../../../tools/n8n/n8nUserFolder.mts';
import { companyNifs } from '../nifs.mts';
import { BenchSimulator } from '../simulatorControl.mts';
import { PlainLibreBorClient } from '../undiciClient.mts';
import {
	benchCredentials,
	downloadWorkflow,
	followWorkflow,
	MEASURED_NODE,
	type DownloadVia,
	type FollowVia,
} from './benchWorkflows.mts';
import { DOWNLOAD_BYTES_PER_SECOND, DOWNLOAD_FILE_BYTES } from '../downloadConditions.mts';
import { executeTimed } from './timedExecution.mts';
import { networkRuns, type NetworkRun } from './networkRuns.mts';

const VIAS: FollowVia[] = ['LibreBOR node', 'HTTP Request node'];

export interface FollowRun {
	via: FollowVia;
	items: number;
	/** The whole `n8n execute` command. */
	wallMs: number;
	/** The measured node's own execution time, as n8n records it in the run. */
	nodeMs: number;
}

export interface DownloadRun {
	via: DownloadVia;
	peakRssBytes: number;
}

export interface RealN8nResult {
	items: number;
	follow: FollowRun[];
	/** Following companies through a proxy that delays every packet, and under a rate limit. */
	network: NetworkRun[];
	download: DownloadRun[];
}

/** Workflow ids as n8n makes them: 16 letters and digits. */
const workflowId = (name: string) =>
	name
		.replace(/[^A-Za-z0-9]/g, '')
		.padEnd(16, '0')
		.slice(0, 16);
const followId = (via: FollowVia, items: number) =>
	workflowId(`follow${via === 'LibreBOR node' ? 'lb' : 'hr'}${items}x`);
const downloadId = (via: DownloadVia) =>
	workflowId(
		`download${via === 'LibreBOR node' ? 'lb' : via === 'HTTP Request node' ? 'hr' : 'none'}`,
	);

async function followRuns(
	folder: N8nUserFolder,
	sim: BenchSimulator,
	items: number,
	repetitions: number,
): Promise<FollowRun[]> {
	const nifs = companyNifs(items);
	await importWorkflows(
		folder,
		VIAS.flatMap((via) =>
			[items, 1].map((count) =>
				followWorkflow(followId(via, count), via, sim, nifs.slice(0, count)),
			),
		),
	);
	const runs: FollowRun[] = [];
	for (let round = 0; round < repetitions; round++) {
		for (const via of round % 2 === 0 ? VIAS : [...VIAS].reverse()) {
			for (const count of [items, 1]) {
				// The LibreBOR node skips companies already followed: every run starts from the seeded list.
				await sim.reset();
				const execution = await executeTimed(folder, followId(via, count));
				const output = nodeOutputItems(execution.run, MEASURED_NODE);
				if (output.length !== count || output.some((item) => item.error))
					throw new Error(`${via} did not follow ${count} companies`);
				const nodeMs = execution.run.data.resultData.runData[MEASURED_NODE][0].executionTime ?? NaN;
				runs.push({ via, items: count, wallMs: execution.wallMs, nodeMs });
				console.log(
					`  ${via}, ${count} items: ${Math.round(execution.wallMs)} ms (node ${nodeMs} ms)`,
				);
			}
		}
	}
	return runs;
}

async function downloadRuns(
	folder: N8nUserFolder,
	sim: BenchSimulator,
	repetitions: number,
): Promise<DownloadRun[]> {
	await sim.configure({
		latencyMs: 0,
		documentSizeBytes: DOWNLOAD_FILE_BYTES,
		downloadBytesPerSecond: DOWNLOAD_BYTES_PER_SECOND,
	});
	const client = new PlainLibreBorClient({
		baseUrl: sim.baseUrl,
		credentials: sim.credentials,
		reuseConnections: true,
	});
	const ordered = (await client.send('POST', '/documents/order/', {
		nif: 'B64717838',
		type: 'accounts',
		year: '2023',
	})) as { document_id: string };
	const { document } = (await client.send('GET', `/documents/${ordered.document_id}/`)) as {
		document: { download_link: string };
	};
	await client.close();
	const target = { id: ordered.document_id, link: document.download_link };

	const kinds: DownloadVia[] = ['no download (baseline)', ...VIAS];
	await importWorkflows(
		folder,
		kinds.map((via) => downloadWorkflow(downloadId(via), via, target)),
	);

	const runs: DownloadRun[] = [];
	for (let round = 0; round < repetitions; round++) {
		for (const via of round % 2 === 0 ? kinds : [...kinds].reverse()) {
			const execution = await executeTimed(folder, downloadId(via));
			const [item] = nodeOutputItems(execution.run, MEASURED_NODE);
			if (via !== 'no download (baseline)' && item?.binary?.data?.mimeType !== 'application/pdf') {
				throw new Error(`${via} did not download the document`);
			}
			runs.push({ via, peakRssBytes: execution.peakRssBytes });
			console.log(`  ${via}: peak RSS ${Math.round(execution.peakRssBytes / 1024 / 1024)} MiB`);
		}
	}
	return runs;
}

/**
 * The same jobs in a real n8n, with the package installed from its tarball as n8n installs
 * community packages: following companies with our node and with n8n's HTTP Request node, and
 * downloading a large document with each.
 */
export async function measureInRealN8n(
	tarball: string,
	options: { items: number; repetitions: number; jobSizes: number[] },
): Promise<RealN8nResult> {
	const sim = await BenchSimulator.start();
	const folder = await createN8nUserFolder();
	try {
		await installCommunityPackage(folder, tarball);
		await importCredentials(folder, benchCredentials(sim));
		const follow = await followRuns(folder, sim, options.items, options.repetitions);
		const download = await downloadRuns(folder, sim, options.repetitions);
		const network = await networkRuns(folder, sim, options.jobSizes);
		return { items: options.items, follow, download, network };
	} finally {
		await folder.remove();
		await sim.close();
	}
}
