import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';
import type { Readable } from 'node:stream';

function binaryOf(item: INodeExecutionData, propertyName: string): IBinaryData {
	const binary = item.binary?.[propertyName];
	if (!binary) {
		const present = Object.keys(item.binary ?? {}).join(', ') || 'none';
		throw new UnexpectedError(
			`The item has no binary property "${propertyName}" (present: ${present})`,
		);
	}
	return binary;
}

/** The file content of an item's binary property, read back through n8n's binary-data service. */
export async function readBinary(item: INodeExecutionData, propertyName = 'data'): Promise<Buffer> {
	return await Container.get(BinaryDataService).getAsBuffer(binaryOf(item, propertyName));
}

/** The same content as a stream, the way downstream n8n nodes read large files. */
export async function readBinaryStream(
	item: INodeExecutionData,
	propertyName = 'data',
): Promise<Readable> {
	const binary = binaryOf(item, propertyName);
	if (!binary.id)
		throw new UnexpectedError(
			`Binary property "${propertyName}" is held in memory, not stored as a file`,
		);
	return await Container.get(BinaryDataService).getAsStream(binary.id);
}

/** Where the filesystem binary-data mode stored the file, to prove it went to disk. */
export function binaryFilePath(item: INodeExecutionData, propertyName = 'data'): string {
	const binary = binaryOf(item, propertyName);
	if (!binary.id)
		throw new UnexpectedError(
			`Binary property "${propertyName}" is held in memory, not stored as a file`,
		);
	return Container.get(BinaryDataService).getPath(binary.id);
}
