import { NodeOperationError, type IBinaryData, type IExecuteFunctions } from 'n8n-workflow';

import { getDocument, type DocumentRecord } from '../../api/documents';
import { waitUnlessCancelled } from '../../helpers/cancellation';
import { downloadToBinary } from '../../transport/download';
import type { WaitSettings } from './documentOptions';

const PROCESSING = 'processing';

interface FlowSettings extends WaitSettings {
	itemIndex: number;
	timeoutMs: number;
}

/** Polls the document until its status leaves `processing`, or fails after the max wait. */
export async function waitUntilFinished(
	this: IExecuteFunctions,
	documentId: string,
	settings: FlowSettings,
): Promise<DocumentRecord> {
	const deadline = Date.now() + settings.maxWaitMs;
	for (;;) {
		const record = await getDocument.call(this, documentId, settings);
		if (record.status !== PROCESSING) return record;
		if (Date.now() + settings.pollIntervalMs > deadline) {
			throw new NodeOperationError(
				this.getNode(),
				`Document ${documentId} is still processing after ${Math.round(settings.maxWaitMs / 1000)} s`,
				{
					itemIndex: settings.itemIndex,
					description: `It was ordered and will be ready later. Get it then with the Download operation and document ID ${documentId}, or raise Max Wait.`,
				},
			);
		}
		await waitUnlessCancelled(
			this,
			settings.pollIntervalMs,
			`Waiting for document ${documentId}`,
			settings.itemIndex,
		);
	}
}

/** The download link of a finished document, or an error that shows its status. */
export function requireDownloadLink(
	this: IExecuteFunctions,
	documentId: string,
	record: DocumentRecord,
	itemIndex: number,
): string {
	const link = record.download_link;
	if (typeof link === 'string' && link.trim() !== '') return link.trim();
	throw new NodeOperationError(
		this.getNode(),
		`Document ${documentId} finished with status "${String(record.status)}" and no download link`,
		{
			itemIndex,
			description:
				'LibreBOR did not produce the file. Check the document in the Documents section of the LibreBOR user panel, or contact LibreBOR support with the document ID.',
		},
	);
}

export function accountsFileName(nif: unknown, year: unknown, documentId: string): string {
	return typeof nif === 'string' &&
		nif &&
		(typeof year === 'number' || typeof year === 'string') &&
		year
		? `cuentas-anuales-${nif}-${year}.pdf`
		: `cuentas-anuales-${documentId}.pdf`;
}

export async function downloadFinishedDocument(
	this: IExecuteFunctions,
	documentId: string,
	record: DocumentRecord,
	settings: { itemIndex: number; timeoutMs: number; maxBytes: number; fallbackFileName: string },
): Promise<IBinaryData> {
	const link = requireDownloadLink.call(this, documentId, record, settings.itemIndex);
	return await downloadToBinary.call(this, {
		link,
		documentId,
		itemIndex: settings.itemIndex,
		fallbackFileName: settings.fallbackFileName,
		timeoutMs: settings.timeoutMs,
		maxBytes: settings.maxBytes,
	});
}
