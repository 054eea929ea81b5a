import type { INodeProperties } from 'n8n-workflow';

export const documentIdField = (operation: string): INodeProperties => ({
	displayName: 'Document ID',
	name: 'documentId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.document_id }}',
	description: 'The "document_id" returned by the Order operation',
	displayOptions: { show: { resource: ['document'], operation: [operation] } },
});
